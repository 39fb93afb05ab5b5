#include <algorithm>
#include <cmath>

#include "core/walls/MeshWall.hpp"

namespace clumplab {

namespace {
// The rotation vector of a unit quaternion (angle times axis), the shorter arc: the inverse of
// rotationFromVector.
Vec3 rotationVector(Quat q) {
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s == 0.0) return Vec3::Zero();
  return (2.0 * std::atan2(s, q.w()) / s) * v;
}
}  // namespace

WallPose WallMotion::poseAt(double t) const {
  WallPose pose;
  switch (kind) {
    case Kind::None:
      pose.position = position;
      pose.orientation = orientation;
      pose.identity = position == Vec3::Zero() && orientation.coeffs() == Quat::Identity().coeffs();
      return pose;
    case Kind::Velocity: {
      // Turned by |w| t about w through the centre, which moves with v: x(t) = c + v t + R (x0 - c).
      const Quat turn = rotationFromVector(t * angular);
      const Vec3 axisPoint = center + t * linear;
      pose.position = axisPoint + turn * (position - center);
      pose.orientation = (turn * orientation).normalized();
      pose.angularVelocity = angular;
      pose.linearVelocity = linear + angular.cross(pose.position - axisPoint);
      pose.identity = false;
      return pose;
    }
    case Kind::Interpolated: {
      pose.identity = false;
      // Before the first key and after the last the wall rests there (Woo's InterpolatedMotion
      // leaves the node where the path ends).
      if (times.size() == 1 || t <= times.front()) {
        pose.position = positions.front();
        pose.orientation = orientations.front();
        return pose;
      }
      if (t >= times.back()) {
        pose.position = positions.back();
        pose.orientation = orientations.back();
        return pose;
      }
      const auto next = std::upper_bound(times.begin(), times.end(), t);
      const auto i = static_cast<std::size_t>(next - times.begin()) - 1;
      const double span = times[i + 1] - times[i];
      const double s = (t - times[i]) / span;
      // Linear in position; slerp in orientation as q(s) = exp(s a) q_i with a the rotation vector
      // of q_{i+1} q_i^-1 (the shorter arc), so the angular velocity a / span is constant between keys.
      const Vec3 step = positions[i + 1] - positions[i];
      const Vec3 turn = rotationVector(orientations[i + 1] * orientations[i].conjugate());
      pose.position = positions[i] + s * step;
      pose.orientation = renormalized(rotationFromVector(s * turn) * orientations[i]);
      pose.linearVelocity = step / span;
      pose.angularVelocity = turn / span;
      return pose;
    }
  }
  return pose;
}

}  // namespace clumplab
