#pragma once
// How the walls of a snapshot are shown: a floor (a plane facing +z) with a grid, an axis-aligned
// box (six planes facing inwards) by its edges, any other plane as a translucent patch, a
// spherical cavity as a glass sphere, a membrane (Mutze, Polyspherical grains, §1 (iv)) as a tinted grid, a
// mesh wall as translucent faces with their edges, where its motion has it.
#include <optional>
#include <vector>

#include "core/walls/Walls.hpp"

namespace clumplab::render {

struct Box {
  Vec3 lower, upper;
};

struct WallLayout {
  std::optional<double> floorHeight;  // [m] z of the lowest plane facing +z
  std::optional<Box> box;             // when six planes bound an axis-aligned box
  std::vector<Wall> otherPlanes;      // planes that are neither the floor nor a box face
  std::vector<Wall> membranes;        // semi-permeable planes (never box faces)
  std::vector<Wall> cavities;
  std::vector<Wall> meshes;  // mesh walls (MeshWallOverlay.hpp)
};

WallLayout analyzeWalls(const std::vector<Wall>& walls);

// A round grid spacing (1, 2 or 5 times a power of ten) near `length`.
double niceSpacing(double length);

}  // namespace clumplab::render
