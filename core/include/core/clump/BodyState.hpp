#pragma once
// Mutable state of all bodies as a struct of arrays (one entry per body).
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"
#include "core/clump/PointProperties.hpp"

namespace clumplab {

struct BodyState {
  std::vector<std::uint32_t> templateIndex;  // into WorldModel::templates
  std::vector<double> mass;                  // [kg], copied from the template
  std::vector<Vec3> moments;                 // principal moments [kg m^2], ascending
  std::vector<Vec3> position;                // centre of mass [m], world
  std::vector<Quat> orientation;             // principal (body) frame -> world
  std::vector<Vec3> velocity;                // [m/s], world
  std::vector<Vec3> angularVelocity;         // [rad/s], world
  std::vector<Vec3> force;                   // [N], world, from the last force evaluation
  std::vector<Vec3> torque;                  // [N m], world, about the centre of mass
  std::vector<PointProperties> point;        // charge, dipoles (body frame), point mass
  // Blocked degrees of freedom (BlockedDofs.hpp): bits 0-2 translations along world x, y, z, bits
  // 3-5 rotations about world X, Y, Z; 0 for a free body.
  std::vector<std::uint8_t> blocked;

  std::size_t size() const { return position.size(); }

  // f(array) for each per-body array above, in declaration order.
  template <class F>
  void forEachArray(F&& f) {
    arrays(*this, f);
  }
  template <class F>
  void forEachArray(F&& f) const {
    arrays(*this, f);
  }

  // Room for n bodies in every array (no reallocation while they are added).
  void reserve(std::size_t n) {
    forEachArray([n](auto& v) { v.reserve(n); });
  }

  // Removes body i; bodies above it move down by one.
  void erase(std::size_t i) {
    forEachArray([i](auto& v) { v.erase(v.begin() + static_cast<std::ptrdiff_t>(i)); });
  }

  // Angular velocity in the body (principal) frame [rad/s].
  Vec3 bodyAngularVelocity(std::size_t i) const { return orientation[i].conjugate() * angularVelocity[i]; }
  // Angular momentum about the centre of mass, world frame [kg m^2/s].
  Vec3 spinAngularMomentum(std::size_t i) const {
    return orientation[i] * moments[i].cwiseProduct(bodyAngularVelocity(i));
  }

 private:
  template <class Self, class F>
  static void arrays(Self& s, F& f) {
    f(s.templateIndex);
    f(s.mass);
    f(s.moments);
    f(s.position);
    f(s.orientation);
    f(s.velocity);
    f(s.angularVelocity);
    f(s.force);
    f(s.torque);
    f(s.point);
    f(s.blocked);
  }
};

// The velocities the bodies moved with since the contact history (the tangential springs) was last
// advanced: a spring grows by the relative displacement they give at the contact point. They differ
// from the velocities the forces are evaluated with when an integrator evaluates forces at a
// predicted end-of-step velocity (LeapfrogIntegrator, SplittingIntegrator) or at a mid-step one
// (MidpointIntegrator). Null: the bodies' own velocities.
struct DriftVelocities {
  const std::vector<Vec3>* linear = nullptr;   // [m/s], world, per body
  const std::vector<Vec3>* angular = nullptr;  // [rad/s], world, per body
  bool given() const { return linear != nullptr && angular != nullptr; }
};

}  // namespace clumplab
