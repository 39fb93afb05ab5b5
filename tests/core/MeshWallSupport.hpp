#pragma once
// Meshes built in code for the mesh-wall tests (core tests do not link the shapes library).
#include <cmath>
#include <memory>
#include <numbers>

#include "core/walls/MeshWall.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab::test {

// The square [-half, half]^2 at height z, n x n cells of two triangles each; the diagonal of a cell
// alternates with its parity, so vertices have 4 or 8 edges.
inline TriangleMesh gridFloor(int n, double half, double z = 0.0) {
  TriangleMesh m;
  const double h = 2.0 * half / n;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) m.vertices.emplace_back(-half + i * h, -half + j * h, z);
  }
  const auto at = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if ((i + j) % 2 == 0) {
        m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
        m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
      } else {
        m.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
        m.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
      }
    }
  }
  return m;
}

// z = slope |x| over x in [-a, a], y in [-b, b]: a valley (slope > 0) or a ridge (slope < 0) along y,
// two triangles a side.
inline TriangleMesh fold(double a, double b, double slope) {
  TriangleMesh m;
  for (const double y : {-b, b}) {
    for (const double x : {-a, 0.0, a}) m.vertices.emplace_back(x, y, slope * std::abs(x));
  }
  m.triangles = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  return m;
}

// A four-sided pyramid with its apex at the origin and its base corners at (+-1, +-1, -1) x size.
inline TriangleMesh pyramid(double size) {
  TriangleMesh m;
  m.vertices = {Vec3::Zero(), Vec3(1, 1, -1) * size, Vec3(-1, 1, -1) * size, Vec3(-1, -1, -1) * size,
                Vec3(1, -1, -1) * size};
  m.triangles = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}};
  return m;
}

// The open lateral surface of a cylinder about the y axis: radius R, y in [-halfLength, halfLength].
inline TriangleMesh drum(double radius, double halfLength, int segments) {
  TriangleMesh m;
  for (int k = 0; k < segments; ++k) {
    const double phi = 2.0 * std::numbers::pi * k / segments;
    m.vertices.emplace_back(radius * std::cos(phi), -halfLength, radius * std::sin(phi));
    m.vertices.emplace_back(radius * std::cos(phi), halfLength, radius * std::sin(phi));
  }
  for (int k = 0; k < segments; ++k) {
    const auto a = static_cast<std::uint32_t>(2 * k),
               b = static_cast<std::uint32_t>(2 * ((k + 1) % segments));
    m.triangles.push_back({a, b, b + 1});
    m.triangles.push_back({a, b + 1, a + 1});
  }
  return m;
}

inline Wall meshWall(const TriangleMesh& mesh, const WallMotion& motion = {}) {
  auto wall = std::make_shared<MeshWall>();
  wall->shape = std::make_shared<const MeshWallShape>(mesh);
  wall->motion = motion;
  return Wall::meshWall(std::move(wall));
}

}  // namespace clumplab::test
