#pragma once
// Trajectory files (PaLa's movie file, Mutze, Polyspherical grains, §8): the scene at the start, then the
// pose and velocities of every body at chosen instants, exactly (doubles), so a replay shows the run as it
// was and can be re-rendered from any viewpoint.
//
// Format "clumplab-trajectory/1", binary, little-endian:
//   8 bytes   magic "CLTRAJ1\n"
//   u64       n, then n bytes of UTF-8: the scene as JSON (sceneToJson) at the first frame
//   u32       T, then T x (u32 length, bytes): the scene's key of each template index used below
//             (templateKeys), since a loaded scene lists its templates in key order
//   frames, until the end of the file, each:
//     u32     0x314D5246 ("FRM1")
//     f64     time [s];  u64 step;  u32 body count B
//     B x     u32 template index (into the embedded scene's templates, in file order),
//             f64 x y z [m], f64 qw qx qy qz (principal frame -> world),
//             f64 vx vy vz [m/s], f64 wx wy wz [rad/s] (world)
// 112 bytes per body and frame. With periodic boundaries (the scene's "periodic") positions are as
// the world keeps them: centres wrapped into the primary box.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/clump/BodyState.hpp"
#include "core/world/Snapshot.hpp"

namespace clumplab {

struct TrajectoryFrame {
  double time = 0.0;  // [s]
  std::uint64_t step = 0;
  SnapshotBodies bodies;
};

struct Trajectory {
  std::string sceneJson;                  // the scene at the first frame
  std::vector<std::string> templateKeys;  // the scene's key of each frame template index
  std::vector<TrajectoryFrame> frames;
};

class TrajectoryWriter {
 public:
  // Creates `path` (written as path + ".partial" and renamed by close(), so a crash never leaves a
  // file that looks complete). Throws InputError naming the file.
  TrajectoryWriter(const std::string& path, const std::string& sceneJson,
                   const std::vector<std::string>& templateKeys);
  ~TrajectoryWriter();  // closes
  TrajectoryWriter(const TrajectoryWriter&) = delete;
  TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

  void append(double time, std::uint64_t step, const BodyState& bodies);
  void append(const TrajectoryFrame& frame);
  void close();
  // Stops without a file: the partial one is removed (an import that found bad input).
  void abandon();
  std::size_t frames() const { return frames_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  void write(const void* data, std::size_t size);
  template <class Bodies>
  void appendFrame(double time, std::uint64_t step, const Bodies& bodies);
  std::string path_;
  std::string partial_;
  std::FILE* file_ = nullptr;
  std::size_t frames_ = 0;
  std::uint64_t bytes_ = 0;
};

// Reads a whole trajectory. Throws InputError naming the file and the byte offset of a truncated
// or corrupt part, before returning anything.
Trajectory readTrajectory(const std::string& path);
// The same from the file's bytes already in memory; `path` names it in messages.
Trajectory parseTrajectory(std::string bytes, const std::string& path);

}  // namespace clumplab
