#include "WallGeometry.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace clumplab::render {

namespace {

constexpr double kAligned = 1.0 - 1e-9;  // |n . axis| above this: the plane is axis-aligned

}  // namespace

WallLayout analyzeWalls(const std::vector<Wall>& walls) {
  WallLayout layout;
  // For each axis and sign, the index of the one plane facing that way (-1 none, -2 several).
  std::array<std::array<int, 2>, 3> faces{{{-1, -1}, {-1, -1}, {-1, -1}}};
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const Wall& w = walls[i];
    if (w.kind == Wall::Kind::SphereCavity) {
      layout.cavities.push_back(w);
      continue;
    }
    if (w.kind == Wall::Kind::Membrane) {
      layout.membranes.push_back(w);
      continue;
    }
    if (w.kind == Wall::Kind::Mesh) {
      layout.meshes.push_back(w);
      continue;
    }
    for (int a = 0; a < 3; ++a) {
      const double c = w.normal[a];
      if (std::abs(c) < kAligned) continue;
      int& slot = faces[a][c > 0.0 ? 0 : 1];
      slot = slot == -1 ? static_cast<int>(i) : -2;
    }
  }
  bool isBox = true;
  Box box{Vec3::Zero(), Vec3::Zero()};
  for (int a = 0; a < 3 && isBox; ++a) {
    if (faces[a][0] < 0 || faces[a][1] < 0) {
      isBox = false;
      break;
    }
    box.lower[a] = walls[static_cast<std::size_t>(faces[a][0])].point[a];
    box.upper[a] = walls[static_cast<std::size_t>(faces[a][1])].point[a];
    isBox = box.lower[a] < box.upper[a];
  }
  if (isBox) layout.box = box;

  std::optional<std::size_t> floorIndex;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const Wall& w = walls[i];
    if (w.kind != Wall::Kind::Plane) continue;
    const bool facesUp = w.normal.z() >= kAligned;
    if (facesUp && (!layout.floorHeight || w.point.z() < *layout.floorHeight)) {
      layout.floorHeight = w.point.z();
      floorIndex = i;
    }
    bool boxFace = false;
    if (isBox) {
      for (const auto& axis : faces)
        for (int f : axis) boxFace = boxFace || f == static_cast<int>(i);
    }
    if (!boxFace) candidates.push_back(i);
  }
  // Every plane but the floor and the box faces is drawn as a patch (a second upward plane too).
  for (std::size_t i : candidates) {
    if (!(floorIndex && *floorIndex == i)) layout.otherPlanes.push_back(walls[i]);
  }
  return layout;
}

double niceSpacing(double length) {
  if (!(length > 0.0) || !std::isfinite(length)) return 1.0;
  const double decade = std::pow(10.0, std::floor(std::log10(length)));
  const double m = length / decade;
  return decade * (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0);
}

}  // namespace clumplab::render
