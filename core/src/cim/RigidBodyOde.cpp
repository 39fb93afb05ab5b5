#include "core/cim/RigidBodyOde.hpp"

#include <limits>
#include <utility>

namespace clumplab::cim {

void RigidBodySet::resize(std::size_t n) {
  position.resize(n, Vec3::Zero());
  velocity.resize(n, Vec3::Zero());
  orientation.resize(n, Quat::Identity());
  bodyAngularVelocity.resize(n, Vec3::Zero());
}

void RigidBodySet::add(const ParticleState& s) {
  position.push_back(s.position);
  velocity.push_back(s.velocity);
  orientation.push_back(s.orientation);
  bodyAngularVelocity.push_back(s.orientation.conjugate() * s.angularVelocity);
}

namespace {
void packOne(const RigidBodySet& set, std::size_t i, double* out, const Vec3& origin) {
  Vec3::Map(out) = set.position[i] - origin;
  Vec3::Map(out + 3) = set.velocity[i];
  const Quat& q = set.orientation[i];
  out[6] = q.w();
  out[7] = q.x();
  out[8] = q.y();
  out[9] = q.z();
  Vec3::Map(out + 10) = set.bodyAngularVelocity[i];
}

void unpackOne(const double* in, RigidBodySet& set, std::size_t i, const Vec3& origin) {
  set.position[i] = Eigen::Map<const Vec3>(in) + origin;
  set.velocity[i] = Eigen::Map<const Vec3>(in + 3);
  set.orientation[i] = Quat(in[6], in[7], in[8], in[9]);
  set.bodyAngularVelocity[i] = Eigen::Map<const Vec3>(in + 10);
}
}  // namespace

void packBodies(const RigidBodySet& set, std::span<const std::uint32_t> members, OdeState& y,
                const Vec3& origin) {
  y.resize(static_cast<Eigen::Index>(kRigidBodyStateSize * members.size()));
  for (std::size_t k = 0; k < members.size(); ++k) {
    packOne(set, members[k], y.data() + kRigidBodyStateSize * k, origin);
  }
}

void unpackBodies(const OdeState& y, std::span<const std::uint32_t> members, RigidBodySet& set,
                  const Vec3& origin) {
  for (std::size_t k = 0; k < members.size(); ++k) {
    unpackOne(y.data() + kRigidBodyStateSize * k, set, members[k], origin);
  }
}

void packAll(const RigidBodySet& set, OdeState& y) {
  y.resize(static_cast<Eigen::Index>(kRigidBodyStateSize * set.size()));
  for (std::size_t i = 0; i < set.size(); ++i)
    packOne(set, i, y.data() + kRigidBodyStateSize * i, Vec3::Zero());
}

void unpackAll(const OdeState& y, RigidBodySet& set) {
  set.resize(static_cast<std::size_t>(y.size()) / kRigidBodyStateSize);
  for (std::size_t i = 0; i < set.size(); ++i)
    unpackOne(y.data() + kRigidBodyStateSize * i, set, i, Vec3::Zero());
}

double kineticEnergy(const RigidBodySet& set, std::size_t i, const RigidBodyInertia& inertia) {
  const Vec3& w = set.bodyAngularVelocity[i];
  return 0.5 * inertia.mass * set.velocity[i].squaredNorm() + 0.5 * w.dot(inertia.moments.cwiseProduct(w));
}

Vec3 spinAngularMomentum(const RigidBodySet& set, std::size_t i, const RigidBodyInertia& inertia) {
  return set.orientation[i] * inertia.moments.cwiseProduct(set.bodyAngularVelocity[i]);
}

Eigen::Vector4d quaternionRate(const Quat& q, const Vec3& w) {
  // 1/2 Q(q) (0, w): the paper's 4x4 matrix, i.e. the product q (x) (0, w).
  return 0.5 * Eigen::Vector4d(-q.x() * w.x() - q.y() * w.y() - q.z() * w.z(),
                               q.w() * w.x() - q.z() * w.y() + q.y() * w.z(),
                               q.z() * w.x() + q.w() * w.y() - q.x() * w.z(),
                               -q.y() * w.x() + q.x() * w.y() + q.w() * w.z());
}

Vec3 eulerAngularAcceleration(const Vec3& I, const Vec3& w, const Vec3& n) {
  return Vec3((n.x() + w.y() * w.z() * (I.y() - I.z())) / I.x(),
              (n.y() + w.z() * w.x() * (I.z() - I.x())) / I.y(),
              (n.z() + w.x() * w.y() * (I.x() - I.y())) / I.z());
}

namespace {
RigidBodyOde::ForceAndRateCallback withoutRates(RigidBodyOde::ForceCallback forces) {
  if (!forces) return {};
  return
      [f = std::move(forces)](const RigidBodySet& state, std::vector<Vec3>& force, std::vector<Vec3>& torque,
                              std::span<double> /*rates*/) { f(state, force, torque); };
}

// Bodies 0..n-1 of the packed state y (its extra components, if any, are not bodies).
void unpackFirst(const OdeState& y, std::size_t n, RigidBodySet& set) {
  set.resize(n);
  for (std::size_t i = 0; i < n; ++i) unpackOne(y.data() + kRigidBodyStateSize * i, set, i, Vec3::Zero());
}
}  // namespace

RigidBodyOde::RigidBodyOde(std::vector<RigidBodyInertia> inertia, const Vec3& gravity, ForceCallback forces)
    : inertia_(std::move(inertia)), gravity_(gravity), forces_(withoutRates(std::move(forces))) {}

void RigidBodyOde::reset(std::span<const RigidBodyInertia> inertia, const Vec3& gravity,
                         ForceCallback forces) {
  reset(inertia, gravity, withoutRates(std::move(forces)), 0);
}

void RigidBodyOde::reset(std::span<const RigidBodyInertia> inertia, const Vec3& gravity,
                         ForceAndRateCallback forces, std::size_t extraCount) {
  inertia_.assign(inertia.begin(), inertia.end());
  gravity_ = gravity;
  forces_ = std::move(forces);
  origin_ = Vec3::Zero();
  extraCount_ = extraCount;
  positionScales_.clear();
  speedScale_ = 0.0;
  evaluations_ = 0;
  layoutBlocks();
}

void RigidBodyOde::setPositionScales(std::span<const double> lengths) {
  setMotionScales(lengths, 0.0);
}

void RigidBodyOde::setMotionScales(std::span<const double> lengths, double speed) {
  positionScales_.assign(lengths.begin(), lengths.end());
  speedScale_ = speed;
  layoutBlocks();
}

void RigidBodyOde::layoutBlocks() {
  floors_.clear();
  blocks_.clear();
  if (positionScales_.empty() && extraCount_ == 0) return;  // no floors: the plain pattern
  const std::size_t n = inertia_.size();
  floors_.assign(4 * n, 0.0);
  for (std::size_t i = 0; i < n && i < positionScales_.size(); ++i) {
    floors_[4 * i] = positionScales_[i];
    floors_[4 * i + 1] = speedScale_;
    floors_[4 * i + 3] = positionScales_[i] > 0.0 ? speedScale_ / positionScales_[i] : 0.0;
  }
  if (extraCount_ == 0) return;
  blocks_.reserve(4 * n + extraCount_);
  for (std::size_t i = 0; i < n; ++i) blocks_.insert(blocks_.end(), {3, 3, 4, 3});
  blocks_.insert(blocks_.end(), extraCount_, 1);
  // An infinite floor makes a block's error ratio zero: the extras do not steer the step size.
  floors_.insert(floors_.end(), extraCount_, std::numeric_limits<double>::infinity());
}

void RigidBodyOde::bodiesOf(const OdeState& y, RigidBodySet& out) const {
  unpackFirst(y, inertia_.size(), out);
  for (Vec3& x : out.position) x += origin_;
  // Within a step's stages |q| drifts from 1 by the local error: forces and the torque transform
  // see the unit quaternion, while dq/dt uses q itself (whose exact flow keeps |q|).
  for (Quat& q : out.orientation) q.normalize();
}

void RigidBodyOde::derivative(double /*t*/, const OdeState& y, OdeState& dydt) {
  const std::size_t n = inertia_.size();
  dydt.resize(y.size());
  bodiesOf(y, state_);
  force_.assign(n, Vec3::Zero());
  torque_.assign(n, Vec3::Zero());
  const auto extras = static_cast<Eigen::Index>(extraCount_);
  const Eigen::Index first = static_cast<Eigen::Index>(kRigidBodyStateSize * n);
  dydt.segment(first, extras).setZero();
  if (forces_) forces_(state_, force_, torque_, std::span<double>(dydt.data() + first, extraCount_));
  ++evaluations_;
  for (std::size_t i = 0; i < n; ++i) {
    double* d = dydt.data() + kRigidBodyStateSize * i;
    const double* yi = y.data() + kRigidBodyStateSize * i;
    const Quat qRaw(yi[6], yi[7], yi[8], yi[9]);
    const Quat& q = state_.orientation[i];
    const Vec3& w = state_.bodyAngularVelocity[i];
    Vec3::Map(d) = state_.velocity[i];
    Vec3::Map(d + 3) = force_[i] / inertia_[i].mass + gravity_;
    Eigen::Vector4d::Map(d + 6) = quaternionRate(qRaw, w);
    // N^p = A N^lab with A = R(q)^T.
    Vec3::Map(d + 10) = eulerAngularAcceleration(inertia_[i].moments, w, q.conjugate() * torque_[i]);
  }
}

void RigidBodyOde::project(OdeState& y) {
  const auto end = static_cast<Eigen::Index>(kRigidBodyStateSize * inertia_.size());
  for (Eigen::Index i = 6; i < end; i += kRigidBodyStateSize) y.segment<4>(i).normalize();
}

}  // namespace clumplab::cim
