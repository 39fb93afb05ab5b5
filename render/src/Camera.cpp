#include "render/Camera.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace clumplab::render {

namespace {

constexpr double kOrbitRadPerPixel = 0.008;
constexpr double kZoomPerStep = 1.1;
constexpr double kNearFraction = 0.02;  // near plane at this fraction of the distance
constexpr double kFarFactor = 60.0;     // far plane at this multiple of the distance

double tanHalfFov() {
  return std::tan(0.5 * Camera::kFovYDegrees * std::numbers::pi / 180.0);
}

QMatrix4x4 toQt(const Eigen::Matrix4d& m) {
  QMatrix4x4 q;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) q(r, c) = static_cast<float>(m(r, c));
  return q;
}

}  // namespace

void Camera::setViewport(int widthPx, int heightPx) {
  width_ = std::max(1, widthPx);
  height_ = std::max(1, heightPx);
}

void Camera::orbit(double dxPx, double dyPx) {
  setAngles(yaw_ - kOrbitRadPerPixel * dxPx, pitch_ + kOrbitRadPerPixel * dyPx);
}

void Camera::pan(double dxPx, double dyPx) {
  // One logical pixel spans this many metres at the target's depth.
  const double metresPerPixel = distance_ / focalPixels();
  target_ += metresPerPixel * (-dxPx * right() + dyPx * up());
}

void Camera::zoom(double wheelSteps) {
  setDistance(distance_ * std::pow(kZoomPerStep, -wheelSteps));
}

void Camera::fit(const Vec3& center, double radius) {
  if (!center.allFinite()) return;
  target_ = center;
  setDistance(fitDistance(radius));
}

double Camera::fitDistance(double radius) const {
  radius = std::isfinite(radius) ? std::min(radius, 1e9) : 1e9;
  const double t = tanHalfFov();
  // The narrower of the two half-angles decides; a sphere fits a cone of half-angle a at d = r / sin a.
  const double halfAngle = std::atan(std::min(t, t * aspect()));
  return 1.08 * std::max(radius, 1e-9) / std::sin(halfAngle);
}

void Camera::keepInView(const Vec3& center, double radius) {
  if (!center.allFinite() || !std::isfinite(radius)) return;
  // The sphere about the target that holds the given one, framed as fit() would.
  const double needed = fitDistance((center - target_).norm() + std::max(radius, 0.0));
  if (needed > distance_) setDistance(needed);
}

void Camera::lookAlong(const Vec3& direction) {
  if (direction.squaredNorm() == 0.0 || !direction.allFinite()) return;
  const Vec3 toEye = -direction.normalized();
  const double pitch = std::asin(std::clamp(toEye.z(), -1.0, 1.0));
  // Straight up or down: keep the yaw, the pitch clamp keeps the view defined.
  const double yaw = std::hypot(toEye.x(), toEye.y()) > 1e-9 ? std::atan2(toEye.y(), toEye.x()) : yaw_;
  setAngles(yaw, pitch);
}

void Camera::setDistance(double d) {
  if (std::isfinite(d)) distance_ = std::clamp(d, 1e-9, 1e9);
}

void Camera::setAngles(double yawRad, double pitchRad) {
  if (!std::isfinite(yawRad) || !std::isfinite(pitchRad)) return;
  yaw_ = std::remainder(yawRad, 2.0 * std::numbers::pi);
  pitch_ = std::clamp(pitchRad, -kMaxPitch, kMaxPitch);
}

Vec3 Camera::eye() const {
  return target_ - distance_ * forward();
}

Vec3 Camera::forward() const {
  const double cp = std::cos(pitch_);
  return -Vec3(cp * std::cos(yaw_), cp * std::sin(yaw_), std::sin(pitch_));
}

Vec3 Camera::right() const {
  return forward().cross(Vec3::UnitZ()).normalized();
}

Vec3 Camera::up() const {
  return right().cross(forward());
}

double Camera::nearPlane() const {
  return kNearFraction * distance_;
}
double Camera::farPlane() const {
  return kFarFactor * distance_;
}
double Camera::focalPixels() const {
  return 0.5 * height_ / tanHalfFov();
}

Eigen::Matrix4d Camera::viewMatrixD() const {
  const Vec3 f = forward(), r = right(), u = up(), e = eye();
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = r.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -r.dot(e);
  m(1, 3) = -u.dot(e);
  m(2, 3) = f.dot(e);
  return m;
}

Eigen::Matrix4d Camera::projectionMatrixD() const {
  const double f = 1.0 / tanHalfFov(), n = nearPlane(), fa = farPlane();
  Eigen::Matrix4d p = Eigen::Matrix4d::Zero();
  p(0, 0) = f / aspect();
  p(1, 1) = f;
  p(2, 2) = (fa + n) / (n - fa);
  p(2, 3) = 2.0 * fa * n / (n - fa);
  p(3, 2) = -1.0;
  p(0, 2) = -shiftNdc_;  // x_ndc += shift for every depth: the frustum skewed sideways
  return p;
}

Camera Camera::stereoEye(double offset) const {
  Camera eye = *this;
  eye.target_ = target_ + offset * right();
  // The old target, now at -offset across the eye's axis at depth `distance_`, lands at the centre.
  eye.shiftNdc_ = shiftNdc_ + offset / tanHalfFov() / (aspect() * distance_);
  return eye;
}

QMatrix4x4 Camera::viewMatrix() const {
  return toQt(viewMatrixD());
}
QMatrix4x4 Camera::projectionMatrix() const {
  return toQt(projectionMatrixD());
}

Ray Camera::rayThroughPixel(double xPx, double yPx) const {
  const double t = tanHalfFov();
  const double sx = (2.0 * xPx / width_ - 1.0) * t * aspect();
  const double sy = (1.0 - 2.0 * yPx / height_) * t;
  return Ray{eye(), (forward() + sx * right() + sy * up()).normalized()};
}

Eigen::Vector2d Camera::project(const Vec3& world) const {
  const Vec3 d = world - eye();
  const double depth = d.dot(forward());
  const double f = focalPixels();
  return {0.5 * width_ * (1.0 + shiftNdc_) + f * d.dot(right()) / depth,
          0.5 * height_ - f * d.dot(up()) / depth};
}

double Camera::depthOf(const Vec3& world) const {
  return (world - eye()).dot(forward());
}

double Camera::pixelsPerMeterAt(const Vec3& world) const {
  return focalPixels() / depthOf(world);
}

}  // namespace clumplab::render
