#pragma once
// A triangle mesh as plain data: what shapes/ imports and checks, and what render/ draws.
#include <array>
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct TriangleMesh {
  std::vector<Vec3> vertices;                           // [m]
  std::vector<std::array<std::uint32_t, 3>> triangles;  // counter-clockwise seen from outside

  std::size_t size() const { return triangles.size(); }
  const Vec3& corner(std::size_t triangle, int k) const { return vertices[triangles[triangle][k]]; }
};

}  // namespace clumplab
