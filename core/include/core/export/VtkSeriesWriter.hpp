#pragma once
// ParaView output of a run: per output step three VTK XML files in one folder, and a
// `clumplab.pvd` collection that indexes them by time (part 0 pebbles, 1 bodies, 2 walls):
//   pebbles_NNNNNN.vtu  UnstructuredGrid, one vertex per pebble at its centre [m], point data
//                       radius [m], body, template (indices), velocity [m/s] (of the body at the
//                       pebble centre, v + w x r), angular_velocity [rad/s] (its body's, world);
//                       with spherocylinders also axis (world unit vector) and half_length [m]
//                       (0 for spheres): ParaView's glyphs draw them as capsules of that reach.
//   bodies_NNNNNN.vtu   UnstructuredGrid, one vertex per body at its centre of mass [m], point data
//                       body, template, mass [kg], principal_moments [kg m^2], orientation (w, x, y,
//                       z), axis_1, axis_2, axis_3 (the principal axes in the world, moments
//                       ascending), velocity [m/s], angular_velocity [rad/s], angular_momentum
//                       (world, about the centre of mass, R I R^T w) [kg m^2/s]; field data
//                       template_names (strings, in template order) and time [s].
//   walls_NNNNNN.vtp    PolyData, one polygon per wall face (planes cut to the drawing domain,
//                       cavities as spheres) plus whatever surface sources add (mesh walls), cell
//                       data wall (index into WorldModel::walls, -1 for added ones) and kind
//                       (0 plane, 1 sphere, 2 membrane, 3 anything added).
// Files are ASCII with 17 significant digits (every double round-trips exactly; a file is about
// 3x larger than binary would be: use --every for long runs). The .pvd is rewritten after every
// step, so an interrupted run leaves a valid index. Plain C++: no VTK library is needed to write.
#include <functional>
#include <string>
#include <vector>

#include "core/export/VtkSurface.hpp"
#include "core/export/WallSurfaces.hpp"

namespace clumplab {

class World;

class VtkSeriesWriter {
 public:
  // Creates `folder` (and parents) if needed; throws std::runtime_error naming it if it cannot.
  explicit VtkSeriesWriter(std::string folder);

  // Extra boundaries to draw at every step (mesh walls of another subsystem): called with the
  // world at each write, their surfaces go into the walls file after the World's own walls.
  using SurfaceSource = std::function<std::vector<VtkSurface>(const World&)>;
  void addSurfaceSource(SurfaceSource source) { sources_.push_back(std::move(source)); }

  // Writes the world's current state as the next output step (at world.time()). The region planes
  // are drawn in is fixed at the first write (the bodies' extent then, and the walls).
  void write(const World& world);

  const std::string& folder() const { return folder_; }
  std::size_t stepsWritten() const { return times_.size(); }
  // Names of every file written, relative to folder() (the .pvd last).
  std::vector<std::string> files() const;

 private:
  void writeCollection() const;

  std::string folder_;
  std::vector<SurfaceSource> sources_;
  std::vector<double> times_;
  bool domainSet_ = false;
  Box3 domain_;
};

}  // namespace clumplab
