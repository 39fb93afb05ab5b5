#include "gui/view/CameraTransition.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::gui {

void CameraTransition::start(const render::Camera& camera, const render::Camera& goal) {
  from_ = {camera.target(), camera.distance(), camera.yaw(), camera.pitch()};
  to_ = {goal.target(), goal.distance(), goal.yaw(), goal.pitch()};
  // Turn the short way round.
  double turn = std::remainder(to_.yaw - from_.yaw, 2.0 * M_PI);
  to_.yaw = from_.yaw + turn;
  clock_.start();
  running_ = true;
}

bool CameraTransition::advance(render::Camera& camera) {
  if (!running_) return false;
  const double u = std::min(1.0, static_cast<double>(clock_.nsecsElapsed()) * 1e-9 / kSeconds);
  const double s = u * u * (3.0 - 2.0 * u);  // smoothstep: starts and ends at rest
  camera.setTarget(from_.target + s * (to_.target - from_.target));
  camera.setDistance(from_.distance * std::pow(to_.distance / from_.distance, s));
  camera.setAngles(from_.yaw + s * (to_.yaw - from_.yaw), from_.pitch + s * (to_.pitch - from_.pitch));
  running_ = u < 1.0;
  return running_;
}

}  // namespace clumplab::gui
