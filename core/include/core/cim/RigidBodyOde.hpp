#pragma once
// The equations of motion of a set of rigid bodies as one ODE (Meland et al., Cluster integration method,
// Appendix A): per body the centre of mass R, its velocity v, the orientation quaternion q and the angular
// velocity in the principal frame w^p,
//   dR/dt = v,   dv/dt = F / m + g,   dq/dt = 1/2 q (x) (0, w^p),
//   I1 dw1/dt = N1^p + w2 w3 (I2 - I3)  (and cyclically; Euler's equations, Goldstein 1980 §5.5),
// with the lab-frame force F and torque N (about the centre of mass) from a callback, the torque
// taken to the principal frame by N^p = A N^lab, A = R(q)^T (the paper's matrix A). Quaternions
// rotate principal-frame coordinates into the lab (core/base/Math.hpp), so the paper's A is the
// transpose of q's rotation matrix.
//
// The packed state of n bodies is 13 n doubles, body after body: R (3), v (3), q (w, x, y, z),
// w^p (3). A cluster packs just its members, so each cluster integrates a small state of its own.
// Optionally the state carries further quantities after the bodies, integrated with the same steps
// from rates the force callback gives (the work of dissipative forces, wall impulses: what the
// World's energy and momentum bookkeeping needs, accurate to the integration's own order).
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/MemoryBytes.hpp"
#include "core/cim/OdeSystem.hpp"

namespace clumplab::cim {

inline constexpr int kRigidBodyStateSize = 13;

struct RigidBodyInertia {
  double mass = 1.0;            // [kg]
  Vec3 moments = Vec3::Ones();  // principal moments I1, I2, I3 [kg m^2], any order
};

// One body's state as force callbacks see it.
struct ParticleState {
  Vec3 position = Vec3::Zero();         // centre of mass [m], lab
  Vec3 velocity = Vec3::Zero();         // [m/s], lab
  Quat orientation = Quat::Identity();  // principal frame -> lab
  Vec3 angularVelocity = Vec3::Zero();  // [rad/s], lab
};

// The integrated quantities of a set of bodies, struct of arrays.
struct RigidBodySet {
  std::vector<Vec3> position;             // [m], lab
  std::vector<Vec3> velocity;             // [m/s], lab
  std::vector<Quat> orientation;          // principal frame -> lab, unit
  std::vector<Vec3> bodyAngularVelocity;  // w^p [rad/s], principal frame

  std::size_t size() const { return position.size(); }
  void resize(std::size_t n);
  Vec3 angularVelocity(std::size_t i) const { return orientation[i] * bodyAngularVelocity[i]; }
  ParticleState particle(std::size_t i) const {
    return {position[i], velocity[i], orientation[i], angularVelocity(i)};
  }
  // Appends a body given its lab angular velocity [rad/s].
  void add(const ParticleState& s);
  std::size_t memoryBytes() const {  // [bytes], as a copy holds it
    return elementBytes(position) + elementBytes(velocity) + elementBytes(orientation) +
           elementBytes(bodyAngularVelocity);
  }
};

// Packs bodies `members` (indices into `set`, in that order) into y (resized to 13 |members|), with
// positions relative to `origin` [m] (see RigidBodyOde::setPositionOrigin).
void packBodies(const RigidBodySet& set, std::span<const std::uint32_t> members, OdeState& y,
                const Vec3& origin = Vec3::Zero());
// The inverse: writes y's bodies back into `set` at `members`, adding `origin` to the positions.
void unpackBodies(const OdeState& y, std::span<const std::uint32_t> members, RigidBodySet& set,
                  const Vec3& origin = Vec3::Zero());
// Packs or unpacks all bodies in order (unpackAll resizes `set`).
void packAll(const RigidBodySet& set, OdeState& y);
void unpackAll(const OdeState& y, RigidBodySet& set);

// Kinetic energy 1/2 m v^2 + 1/2 w^p . I w^p of body i [J].
double kineticEnergy(const RigidBodySet& set, std::size_t i, const RigidBodyInertia& inertia);
// Angular momentum about the centre of mass, lab frame [kg m^2/s].
Vec3 spinAngularMomentum(const RigidBodySet& set, std::size_t i, const RigidBodyInertia& inertia);

class RigidBodyOde final : public OdeSystem {
 public:
  // Fills forces [N] and torques [N m] (lab frame, about each centre of mass) for the bodies of
  // `state`; both come zeroed and sized like the state. Gravity is not included: the ODE adds g.
  using ForceCallback =
      std::function<void(const RigidBodySet& state, std::vector<Vec3>& forces, std::vector<Vec3>& torques)>;
  // The same, with the rates of the extra components (zeroed, one per extra component) to fill.
  using ForceAndRateCallback = std::function<void(const RigidBodySet& state, std::vector<Vec3>& forces,
                                                  std::vector<Vec3>& torques, std::span<double> rates)>;

  RigidBodyOde() = default;
  RigidBodyOde(std::vector<RigidBodyInertia> inertia, const Vec3& gravity, ForceCallback forces);

  // Reuse for another set of bodies (keeps the scratch buffers' capacity); the origin returns to 0
  // and there are no extra components.
  void reset(std::span<const RigidBodyInertia> inertia, const Vec3& gravity, ForceCallback forces);
  // With `extraCount` components after the bodies' 13 n, whose rates `forces` fills. They take no
  // part in the step-size control (their error follows the bodies': their rates are functions of the
  // bodies' state): each is an error block of its own with an infinite floor.
  void reset(std::span<const RigidBodyInertia> inertia, const Vec3& gravity, ForceAndRateCallback forces,
             std::size_t extraCount);

  // The packed positions are relative to `origin` [m]; the force callback sees lab positions
  // (packed + origin). A cluster packs its positions relative to a point of its own, so that the
  // relative tolerance on positions means the same wherever the cluster is (measured from the
  // lab origin, a cluster far from it would get a looser position tolerance than one near it).
  void setPositionOrigin(const Vec3& origin) { origin_ = origin; }
  const Vec3& positionOrigin() const { return origin_; }
  // A length per body [m] below which its position's norm does not shrink the error scale (its
  // size, say): with the origin at a cluster member, that member's position would otherwise be
  // held to rtol times its own displacement. Empty: no floors.
  void setPositionScales(std::span<const double> lengths);
  // The same, and a speed [m/s] below which a body's velocity does not shrink the error scale, and
  // speed / length_i for its angular velocity [rad/s]: a body at rest struck by another (or starting
  // to spin) is then held to rtol times the motion of its cluster, not of its own, which at the
  // start of a contact is zero and whose relative error a jump of the force (a dashpot) keeps above
  // any tolerance however short the step.
  void setMotionScales(std::span<const double> lengths, double speed);

  void derivative(double t, const OdeState& y, OdeState& dydt) override;
  // The bodies of `y` as the force callback sees them (lab positions, unit quaternions), into `out`.
  void bodiesOf(const OdeState& y, RigidBodySet& out) const;
  // Renormalises every quaternion.
  void project(OdeState& y) override;
  std::span<const int> errorBlocks() const override {
    static constexpr int kBlocks[] = {3, 3, 4, 3};
    if (extraCount_ > 0) return blocks_;
    return kBlocks;
  }
  std::span<const double> errorFloors() const override { return floors_; }

  std::size_t bodyCount() const { return inertia_.size(); }
  std::size_t extraCount() const { return extraCount_; }
  // The size of the packed state: 13 n + extraCount().
  Eigen::Index stateSize() const {
    return static_cast<Eigen::Index>(kRigidBodyStateSize * inertia_.size() + extraCount_);
  }
  const std::vector<RigidBodyInertia>& inertia() const { return inertia_; }
  std::size_t evaluations() const { return evaluations_; }

 private:
  std::vector<RigidBodyInertia> inertia_;
  Vec3 gravity_ = Vec3::Zero();
  Vec3 origin_ = Vec3::Zero();
  // Rebuilds blocks_ and floors_ from the position scales and the extra components.
  void layoutBlocks();

  std::vector<double> floors_;  // per block: position scale, then 0 for v, q, w^p; extras: infinity
  std::vector<double> positionScales_;
  double speedScale_ = 0.0;
  std::vector<int> blocks_;  // with extras: the whole state's blocks, {3, 3, 4, 3} per body, then 1s
  std::size_t extraCount_ = 0;
  ForceAndRateCallback forces_;
  std::size_t evaluations_ = 0;
  // Scratch for one evaluation.
  RigidBodySet state_;
  std::vector<Vec3> force_, torque_;
};

// The time derivative of q for body angular velocity w^p: 1/2 q (x) (0, w^p) (Appendix A), as the
// quaternion's (w, x, y, z) components.
Eigen::Vector4d quaternionRate(const Quat& q, const Vec3& bodyAngularVelocity);
// dw^p/dt from Euler's equations for principal moments I and principal-frame torque N^p.
Vec3 eulerAngularAcceleration(const Vec3& moments, const Vec3& bodyAngularVelocity, const Vec3& bodyTorque);

}  // namespace clumplab::cim
