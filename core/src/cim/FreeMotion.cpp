#include "core/cim/FreeMotion.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/cim/RungeKutta.hpp"

namespace clumplab::cim {

namespace {

bool nearlyEqual(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

// Torque-free rotation: y = (q.w, q.x, q.y, q.z, w^p), Euler's equations with N = 0.
class TorqueFreeOde final : public OdeSystem {
 public:
  explicit TorqueFreeOde(const Vec3& moments) : moments_(moments) {}
  void derivative(double /*t*/, const OdeState& y, OdeState& dydt) override {
    dydt.resize(7);
    const Quat q(y[0], y[1], y[2], y[3]);
    const Vec3 w = y.segment<3>(4);
    const Vec3& I = moments_;
    const double hw = 0.5;
    dydt[0] = hw * (-q.x() * w.x() - q.y() * w.y() - q.z() * w.z());
    dydt[1] = hw * (q.w() * w.x() - q.z() * w.y() + q.y() * w.z());
    dydt[2] = hw * (q.z() * w.x() + q.w() * w.y() - q.x() * w.z());
    dydt[3] = hw * (-q.y() * w.x() + q.x() * w.y() + q.w() * w.z());
    dydt[4] = w.y() * w.z() * (I.y() - I.z()) / I.x();
    dydt[5] = w.z() * w.x() * (I.z() - I.x()) / I.y();
    dydt[6] = w.x() * w.y() * (I.x() - I.y()) / I.z();
  }
  void project(OdeState& y) override { y.head<4>().normalize(); }
  std::span<const int> errorBlocks() const override {
    static constexpr int kBlocks[] = {4, 3};
    return kBlocks;
  }

 private:
  Vec3 moments_;
};

// Moves w to the nearest point (to first order) with w.I w = twoE and |I w|^2 = m2: Newton steps
// on the two constraints with the minimum-norm correction. Leaves w unchanged where the two
// constraint gradients are parallel (w along a principal axis, where both hold together anyway).
void projectOntoInvariants(const Vec3& I, double twoE, double m2, Vec3& w) {
  for (int iteration = 0; iteration < 2; ++iteration) {
    const Vec3 iw = I.cwiseProduct(w);
    const Vec3 i2w = I.cwiseProduct(iw);
    const Eigen::Vector2d g(w.dot(iw) - twoE, iw.squaredNorm() - m2);
    Eigen::Matrix<double, 2, 3> jac;
    jac.row(0) = 2.0 * iw.transpose();
    jac.row(1) = 2.0 * i2w.transpose();
    const Eigen::Matrix2d jjt = jac * jac.transpose();
    const double det = jjt.determinant();
    if (!(det > 1e-20 * jjt(0, 0) * jjt(1, 1))) return;
    w -= jac.transpose() * jjt.inverse() * g;
  }
}

}  // namespace

void freeFlight(Vec3& position, Vec3& velocity, const Vec3& gravity, double t) {
  position += t * velocity + (0.5 * t * t) * gravity;
  velocity += t * gravity;
}

MomentSymmetry classifyMoments(const Vec3& I, double tolerance) {
  const bool e01 = nearlyEqual(I[0], I[1], tolerance);
  const bool e12 = nearlyEqual(I[1], I[2], tolerance);
  const bool e02 = nearlyEqual(I[0], I[2], tolerance);
  if (e01 && e12 && e02) return {FreeRotationKind::Sphere, 0};
  if (e01) return {FreeRotationKind::SymmetricTop, 2};
  if (e12) return {FreeRotationKind::SymmetricTop, 0};
  if (e02) return {FreeRotationKind::SymmetricTop, 1};
  return {FreeRotationKind::AsymmetricTop, 0};
}

void rotateSymmetricTop(double axialMoment, double perpendicularMoment, int axis, Quat& orientation,
                        Vec3& bodyAngularVelocity, double t) {
  Vec3 moments = Vec3::Constant(perpendicularMoment);
  moments[axis] = axialMoment;
  const Vec3 lBody = moments.cwiseProduct(bodyAngularVelocity);
  const Vec3 lLab = orientation * lBody;
  const double precessionRate = lLab.norm() / perpendicularMoment;                        // W_p
  const double spinRate = lBody[axis] * (1.0 / axialMoment - 1.0 / perpendicularMoment);  // W_s
  const Vec3 axisBody = Vec3::Unit(axis);
  // Rot(L^, W_p t) as a rotation vector; zero L leaves the body at rest.
  const Vec3 precession =
      precessionRate > 0.0 ? Vec3((precessionRate * t / lLab.norm()) * lLab) : Vec3(Vec3::Zero());
  orientation = renormalized(rotationFromVector(precession) * orientation *
                             rotationFromVector((spinRate * t) * axisBody));
  bodyAngularVelocity = rotationFromVector((-spinRate * t) * axisBody) * bodyAngularVelocity;
}

FreeRotationResult rotateFreely(const Vec3& moments, Quat& orientation, Vec3& bodyAngularVelocity, double t,
                                const FreeRotationSettings& settings) {
  const MomentSymmetry symmetry = classifyMoments(moments, settings.symmetryTolerance);
  FreeRotationResult result;
  result.kind = symmetry.kind;
  if (t == 0.0 || bodyAngularVelocity.isZero(0.0)) return result;
  switch (symmetry.kind) {
    case FreeRotationKind::Sphere:
      orientation = renormalized(orientation * rotationFromVector(t * bodyAngularVelocity));
      return result;
    case FreeRotationKind::SymmetricTop: {
      const int a = symmetry.axis;
      const double perpendicular = 0.5 * (moments[(a + 1) % 3] + moments[(a + 2) % 3]);
      rotateSymmetricTop(moments[a], perpendicular, a, orientation, bodyAngularVelocity, t);
      return result;
    }
    case FreeRotationKind::AsymmetricTop:
      break;
  }
  const Vec3 iw0 = moments.cwiseProduct(bodyAngularVelocity);
  const double twoE = bodyAngularVelocity.dot(iw0);
  const double m2 = iw0.squaredNorm();
  TorqueFreeOde ode(moments);
  OdeState y(7);
  y << orientation.w(), orientation.x(), orientation.y(), orientation.z(), bodyAngularVelocity;
  RkfSettings rkf;
  rkf.relativeTolerance = settings.relativeTolerance;
  rkf.absoluteTolerance = 0.0;  // the blocks' norms never vanish here (w != 0, |q| = 1)
  RungeKuttaWorkspace work;
  const double sign = t > 0.0 ? 1.0 : -1.0;
  // Backwards in time: the same equations with w -> -w run forwards.
  if (sign < 0.0) y.segment<3>(4) = -y.segment<3>(4);
  const RkfStats stats = integrateRkf45(ode, 0.0, std::abs(t), y, rkf, work);
  if (sign < 0.0) y.segment<3>(4) = -y.segment<3>(4);
  result.evaluations = stats.evaluations;
  orientation = Quat(y[0], y[1], y[2], y[3]).normalized();
  bodyAngularVelocity = y.segment<3>(4);
  projectOntoInvariants(moments, twoE, m2, bodyAngularVelocity);
  return result;
}

}  // namespace clumplab::cim
