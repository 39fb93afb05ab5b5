#pragma once
// Built-in parametric shapes: each as a closed, outward-oriented triangle mesh and as a clump
// (pebbles whose union approximates the same solid), for demonstrations (the Dzhanibekov effect
// on the T-handle, the wing nut and the tennis racket) and as test solids.
#include <string>
#include <vector>

#include "core/clump/Pebble.hpp"
#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

struct BuiltinShape {
  std::string name;
  std::string description;
  TriangleMesh mesh;            // [m], closed and outward-oriented
  std::vector<Pebble> pebbles;  // [m], in the mesh's frame
};

// The names makeBuiltinShape accepts, in a fixed order.
std::vector<std::string> builtinShapeNames();

// The shape called `name`. `size` [m] is its largest extent (the longest side of the mesh's
// bounding box); 0 keeps the shape's default size (about 1 cm; the T-handle is the project's T-bar,
// 7 mm tall). Throws std::invalid_argument for an unknown name (listing the valid ones) or a
// negative or non-finite size.
BuiltinShape makeBuiltinShape(const std::string& name, double size = 0.0);

}  // namespace clumplab::shapes
