#pragma once
// A short eased glide of the orbit camera from one view to another (fit all, look along L, start
// tracking), so the user keeps their bearings instead of seeing the view jump.
#include <QElapsedTimer>

#include "render/Camera.hpp"

namespace clumplab::gui {

class CameraTransition {
 public:
  static constexpr double kSeconds = 0.3;

  // Glides `camera` from its current view to `goal`'s (target, distance, yaw, pitch).
  void start(const render::Camera& camera, const render::Camera& goal);
  // Moves the camera along the glide; returns true while it is still under way.
  bool advance(render::Camera& camera);
  bool running() const { return running_; }
  void stop() { running_ = false; }

 private:
  struct View {
    Vec3 target = Vec3::Zero();
    double distance = 1.0, yaw = 0.0, pitch = 0.0;
  };
  View from_, to_;
  QElapsedTimer clock_;
  bool running_ = false;
};

}  // namespace clumplab::gui
