#pragma once
// GPU copies of a snapshot's layout and poses. The pebble instances (body-frame centre, radius,
// body index, spherocylinder half shaft) are uploaded when the layout changes (layoutGeneration, the number
// of bodies or the templates); each frame only the poses and colours go up, 3 RGBA32F texels a body in a
// texture buffer: (position, flags), (orientation quaternion x y z w), (colour in sRGB, alpha).
#include <QColor>
#include <cstdint>
#include <memory>
#include <vector>

#include "Gl.hpp"
#include "core/world/Snapshot.hpp"

namespace clumplab::render {

// One pebble instance as the vertex shaders read it (attributes 0, 1 and 2).
struct PebbleInstance {
  float center[3];  // body frame [m]
  float radius;     // [m]
  std::uint32_t body;
  float shaft[3];  // half the shaft of a spherocylinder, halfLength * axis, body frame [m]; 0: a sphere
};
static_assert(sizeof(PebbleInstance) == 32);

constexpr float kFlagSelected = 1.0f;  // in the w of a body's first texel

class LayoutBuffers {
 public:
  void create(Gl& gl);
  void destroy(Gl& gl);

  // Uploads the pebble instances if the layout changed; returns true if it did.
  bool update(Gl& gl, const Snapshot& snapshot);
  // Per-frame poses and colours (colours.size() == bodies).
  void uploadPoses(Gl& gl, const Snapshot& snapshot, const std::vector<QColor>& colors, int selectedBody);

  unsigned instanceBuffer() const { return instances_; }
  unsigned poseTexture() const { return poseTexture_; }
  int pebbleCount() const { return pebbleCount_; }
  std::uint64_t uploads() const { return uploads_; }

 private:
  unsigned instances_ = 0, poseBuffer_ = 0, poseTexture_ = 0;
  int pebbleCount_ = 0;
  std::uint64_t uploads_ = 0;
  bool valid_ = false;
  std::uint64_t generation_ = 0;
  std::size_t bodyCount_ = 0;
  // Weak, so a template freed and another allocated at the same address still counts as a change.
  std::vector<std::weak_ptr<const ClumpTemplate>> templates_;
  std::vector<float> poseScratch_;
};

}  // namespace clumplab::render
