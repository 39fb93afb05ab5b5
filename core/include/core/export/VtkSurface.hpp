#pragma once
// A boundary drawn in ParaView: a polygon soup in world coordinates [m], one cell per polygon.
// Walls (WallSurfaces.hpp) are turned into these; mesh walls and other moving boundaries plug into
// the VTK output through VtkSeriesWriter::addSurfaceSource with their own.
#include <string>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct VtkSurface {
  std::string kind;                        // "plane", "sphere", "membrane", "mesh", ... (cell data)
  int wall = -1;                           // index of the wall it shows (WorldModel::walls), -1 if none
  std::vector<Vec3> points;                // [m], world
  std::vector<std::vector<int>> polygons;  // indices into `points`, counter-clockwise seen from the
                                           // side the bodies are on
};

}  // namespace clumplab
