#pragma once
// A trajectory file opened for replay: its frames, and the embedded scene's templates and walls,
// from which a Snapshot of any frame is made for the renderer. The snapshot's pose and velocity
// arrays are the file's doubles, bit for bit. Plain C++ (no Qt).
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/Trajectory.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/Snapshot.hpp"

namespace clumplab::gui {

class ReplayDocument {
 public:
  // Reads the file and its embedded scene; throws InputError naming the file (and the byte offset,
  // or the template a frame names that the scene lacks).
  explicit ReplayDocument(const std::string& path);

  const std::string& path() const { return path_; }
  const Scene& scene() const { return scene_; }
  std::size_t frameCount() const { return trajectory_.frames.size(); }
  const TrajectoryFrame& frame(std::size_t k) const { return trajectory_.frames[k]; }
  double startTime() const;  // [s] of the first frame
  double endTime() const;    // [s] of the last frame
  // The last frame at or before `time` [s] (the first one before the start).
  std::size_t frameAt(double time) const;
  // The frame nearest to `time` [s].
  std::size_t nearestFrame(double time) const;
  // Frame k as a snapshot: the file's templates (in file order) and the scene's walls, with the
  // frame's kinetic energy, momentum and angular momentum (no contacts: the file has none).
  void snapshot(std::size_t k, Snapshot& out) const;
  std::size_t pebbles(std::size_t k) const;

 private:
  std::string path_;
  Trajectory trajectory_;
  Scene scene_;
  std::vector<TemplatePtr> templates_;  // by the file's template index
};

}  // namespace clumplab::gui
