#pragma once
// An orbit camera about a target point, z up: yaw about z, pitch above the xy plane, a distance.
// Plain geometry (no OpenGL): view and projection matrices, picking rays and projections in logical
// pixels with the origin at the top-left corner, as widgets and mouse events count them.
#include <QMatrix4x4>

#include <Eigen/Core>

#include "core/base/Math.hpp"

namespace clumplab::render {

struct Ray {
  Vec3 origin;     // world [m]
  Vec3 direction;  // world, unit length
};

class Camera {
 public:
  static constexpr double kFovYDegrees = 35.0;
  static constexpr double kMaxPitch = 1.55334;  // 89 deg: short of the poles, where yaw degenerates

  void setViewport(int widthPx, int heightPx);  // logical pixels (at least 1 each)
  int width() const { return width_; }
  int height() const { return height_; }

  void orbit(double dxPx, double dyPx);  // mouse drag in pixels: yaw and pitch about the target
  void pan(double dxPx, double dyPx);    // the point under the cursor (at the target's depth) follows it
  void zoom(double wheelSteps);          // > 0 zooms in; the distance changes by 10% per step
  void fit(const Vec3& center, double radius);  // frame a bounding sphere, keep the view direction
  double fitDistance(double radius) const;      // [m] the distance fit() frames a sphere of `radius` [m] at
  // Moves back along the view direction (target and direction kept, never closer) until the sphere
  // (`center`, `radius` [m]) lies within the view, in front of the near plane with a margin.
  void keepInView(const Vec3& center, double radius);
  void setTarget(const Vec3& t) {
    if (t.allFinite()) target_ = t;  // a diverged body's NaN position must not blank the view
  }
  Vec3 target() const { return target_; }
  void lookAlong(const Vec3& direction);  // view direction (e.g. along L); keeps the distance
  void setDistance(double d);
  double distance() const { return distance_; }
  void setAngles(double yawRad, double pitchRad);
  double yaw() const { return yaw_; }
  double pitch() const { return pitch_; }

  Vec3 eye() const;
  Vec3 forward() const;  // unit, from the eye towards the target
  Vec3 up() const;       // unit, screen up
  Vec3 right() const;    // unit, screen right

  double aspect() const { return static_cast<double>(width_) / height_; }
  double nearPlane() const;
  double farPlane() const;
  double focalPixels() const;  // logical pixels per unit of tan(angle off axis): h / (2 tan(fovY/2))

  Eigen::Matrix4d viewMatrixD() const;
  Eigen::Matrix4d projectionMatrixD() const;
  QMatrix4x4 viewMatrix() const;
  QMatrix4x4 projectionMatrix() const;  // perspective, fovY 35 deg, near/far from the distance

  // One eye of an anaglyph stereo pair (Mutze, Polyspherical grains, §8): this camera moved by `offset` [m]
  // along right() (the two eyes look parallel), its frustum skewed so that the plane through the target keeps
  // zero parallax (off-axis stereo: nearer things stand out of the screen, farther ones sink behind it).
  // Picking stays with the centred camera.
  Camera stereoEye(double offset) const;
  double projectionShift() const { return shiftNdc_; }  // horizontal, in normalised device units

  Ray rayThroughPixel(double xPx, double yPx) const;  // logical pixels, origin top-left
  Eigen::Vector2d project(const Vec3& world) const;   // logical pixels, origin top-left
  double depthOf(const Vec3& world) const;            // distance along forward() from the eye [m]
  double pixelsPerMeterAt(const Vec3& world) const;   // at the depth of `world`, for projected radii

 private:
  int width_ = 800, height_ = 600;
  Vec3 target_ = Vec3::Zero();
  double distance_ = 1.0;
  double yaw_ = -1.0;      // rad, about +z, 0 looks from +x towards the target
  double pitch_ = 0.45;    // rad, the eye above the xy plane through the target
  double shiftNdc_ = 0.0;  // off-axis frustum of a stereo eye
};

}  // namespace clumplab::render
