#include "core/cim/ClusterStepper.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <utility>

#include "core/base/MemoryBytes.hpp"
#include "core/cim/ClusterLifetime.hpp"

namespace clumplab::cim {

namespace {
// A cluster stops at the displacement limit once the step that would reach it is shorter than this
// share of its interval.
constexpr double kBoundResolution = 1e-3;
}  // namespace

std::size_t ClusterStepReport::memoryBytes() const {
  return neighbors.memoryBytes() + clusters.memoryBytes() + elementBytes(localIndex) + elementBytes(speeds) +
         elementBytes(startPosition) + elementBytes(startOrientation) + elementBytes(clusterStats) +
         elementBytes(tally.wallImpulse);
}

void TallyIntegral::add(const TallyIntegral& other) {
  dissipated += other.dissipated;
  externalWork += other.externalWork;
  if (wallImpulse.size() < other.wallImpulse.size())
    wallImpulse.resize(other.wallImpulse.size(), Vec3::Zero());
  for (std::size_t w = 0; w < other.wallImpulse.size(); ++w) wallImpulse[w] += other.wallImpulse[w];
}

void writeTallyRates(const ForceTally& tally, std::span<const Vec3> wallForces, std::span<double> rates) {
  rates[0] = tally.dissipation;
  rates[1] = tally.externalPower;
  for (std::size_t w = 0; w < wallForces.size(); ++w) {
    for (int k = 0; k < 3; ++k) rates[2 + 3 * w + k] = wallForces[w][k];
  }
}

void readTallyIntegral(std::span<const double> extras, std::size_t wallCount, TallyIntegral& out) {
  // The dissipation rate is never negative, but Fehlberg's weights are not all positive (-1/5 on the fifth
  // stage): where the rate changes fast within a step (a dashpot that switches on as pebbles turn to
  // approach) its integral can come out a few 1e-15 of the energy below zero. That is the quadrature's
  // error, not a gain: the dissipated energy takes no negative share.
  out.dissipated += std::max(0.0, extras[0]);
  out.externalWork += extras[1];
  out.wallImpulse.resize(wallCount, Vec3::Zero());
  for (std::size_t w = 0; w < wallCount; ++w) {
    out.wallImpulse[w] += Vec3(extras[2 + 3 * w], extras[3 + 3 * w], extras[4 + 3 * w]);
  }
}

ClusterStepper::ClusterStepper(ParticleModel model, ClusterStepSettings settings)
    : model_(std::move(model)), settings_(std::move(settings)) {
  if (model_.reach.size() != model_.inertia.size()) {
    throw std::invalid_argument("ClusterStepper: one reach per particle needed");
  }
  if (!(settings_.buffer > 0.0)) throw std::invalid_argument("ClusterStepper: the buffer must be positive");
}

ClusterRun ClusterStepper::integrateCluster(const ClusterStepReport& report, std::size_t c, double elapsed,
                                            double duration, RigidBodySet& state, ClusterWorkspace& work,
                                            double initialStep, double limit, ContactMemory* memory) const {
  const std::span<const std::uint32_t> members = report.clusters.membersOf(c);
  ClusterRun run;
  if (settings_.tally) run.tally.wallImpulse.assign(model_.wallCount, Vec3::Zero());
  const bool remembering = memory != nullptr && model_.keepsMemory();
  if (report.clusters.isFree[c] != 0) {
    const std::uint32_t i = members.front();
    if (remembering) memory->of[i].clear();  // no neighbours, no contacts
    freeFlight(state.position[i], state.velocity[i], model_.gravity, duration);
    run.freeRotationEvaluations +=
        rotateFreely(model_.inertia[i].moments, state.orientation[i], state.bodyAngularVelocity[i], duration,
                     settings_.freeRotation)
            .evaluations;
    run.stats.finished = true;
    run.stats.reached = duration;
    return run;
  }
  work.inertia.clear();
  work.reach.clear();
  double speed = 0.0;  // of the cluster's fastest point
  for (const std::uint32_t i : members) {
    work.inertia.push_back(model_.inertia[i]);
    work.reach.push_back(model_.reach[i]);
    if (i < report.speeds.size()) speed = std::max(speed, report.speeds[i]);
  }
  ForceCallCounts& calls = run.calls;
  const std::span<const std::uint32_t> localIndex = report.localIndex;
  if (settings_.tally) {
    const std::size_t walls = model_.wallCount;
    work.ode.reset(
        work.inertia, model_.gravity,
        [&, walls](const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques,
                   std::span<double> rates) {
          work.wallForces.assign(walls, Vec3::Zero());
          ForceTally tally;
          tally.wallForces = work.wallForces;
          calls.add(
              listForces(model_, report.neighbors, members, localIndex, s, forces, torques, &tally, memory));
          writeTallyRates(tally, work.wallForces, rates);
        },
        tallyComponentCount(walls));
  } else {
    work.ode.reset(work.inertia, model_.gravity,
                   [&](const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques) {
                     calls.add(listForces(model_, report.neighbors, members, localIndex, s, forces, torques,
                                          nullptr, memory));
                   });
  }
  // Positions relative to the first member's, each with its reach as the least length in the error
  // scale: position errors are measured against the cluster's extent and the particles' sizes, the
  // same wherever in the box the cluster is. A body's velocity is measured against its own
  // magnitude, but never below a thousandth of the cluster's fastest point speed (its angular
  // velocity: that over its reach): a body at rest that is struck (or starts to spin) would otherwise
  // be held to a relative accuracy of a quantity that starts at zero, which a jump of the force (a
  // dashpot's, at the contact's start) defeats at any step (RigidBodyOde::setMotionScales). Bodies
  // that slow cause errors in the energy no larger than 1e-6 of the cluster's. Nor below a thousandth
  // of the speed gravity gives in the interval: a cluster that comes to rest on a floor (a damped
  // contact, its speed decaying to 1e-13 m/s) would otherwise be held to the relative accuracy of a
  // speed that goes to zero, with ever shorter steps; an error that size moves nothing by more than
  // 1e-3 g dt^2.
  constexpr double kRestFraction = 1e-3;
  const Vec3 origin = state.position[members.front()];
  work.ode.setPositionOrigin(origin);
  work.ode.setMotionScales(work.reach, kRestFraction * std::max(speed, model_.gravity.norm() * duration));
  packBodies(state, members, work.y, origin);
  const Eigen::Index bodiesSize = work.y.size();
  work.y.conservativeResize(work.ode.stateSize());
  work.y.tail(work.y.size() - bodiesSize).setZero();
  // The largest displacement of a member's points that decide contacts from where the list was
  // built (measured as the lifetime's speeds are), over the limit.
  const Vec3 fall = model_.wallCount > 0 ? Vec3::Zero() : model_.gravity;
  const auto ratio = [&](double t, const OdeState& y) {
    const double since = elapsed + t;
    const Vec3 frame = 0.5 * since * since * fall;
    double farthest = 0.0;
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::uint32_t i = members[k];
      const double* body = y.data() + kRigidBodyStateSize * static_cast<Eigen::Index>(k);
      const Vec3 dx =
          model_.box.minimumImage(Vec3(body[0], body[1], body[2]) + origin - report.startPosition[i] - frame);
      const Quat q(body[6], body[7], body[8], body[9]);
      farthest =
          std::max(farthest, model_.pointDisplacement
                                 ? model_.pointDisplacement(i, dx, report.startOrientation[i], q)
                                 : boundingDisplacement(dx, report.startOrientation[i], q, model_.reach[i]));
    }
    return farthest / limit;
  };
  // The contacts' memory follows every accepted step (the forces of the step's stages read it as it was).
  const auto commit = [&](double t, const OdeState& y) {
    work.ode.bodiesOf(y, work.accepted);
    const double lost = commitContacts(model_, report.neighbors, members, localIndex, work.accepted, *memory);
    if (settings_.tally) run.tally.dissipated += lost;
    if (settings_.rkf.onAcceptedStep) settings_.rkf.onAcceptedStep(t, y);
  };
  if (initialStep > 0.0 || limit > 0.0 || remembering) {
    RkfSettings rkf = settings_.rkf;
    if (remembering) rkf.onAcceptedStep = std::cref(commit);
    if (initialStep > 0.0) rkf.initialStep = initialStep;
    if (limit > 0.0) {
      // By reference (ratio lives in this function's scope, past the integration): std::function
      // keeps a reference_wrapper in its own storage, so a bounded integration allocates nothing.
      rkf.boundRatio = std::cref(ratio);
      rkf.boundResolution = kBoundResolution * duration;
    }
    run.stats = integrateRkf45(work.ode, 0.0, duration, work.y, rkf, work.rk);
  } else {
    run.stats = integrateRkf45(work.ode, 0.0, duration, work.y, settings_.rkf, work.rk);
  }
  unpackBodies(work.y, members, state, origin);
  if (settings_.tally) {
    readTallyIntegral(std::span<const double>(work.y.data() + bodiesSize, work.y.size() - bodiesSize),
                      model_.wallCount, run.tally);
  }
  return run;
}

ClusterStepReport ClusterStepper::prepare(const RigidBodySet& state) const {
  if (state.size() != model_.size()) throw std::invalid_argument("ClusterStepper: state size mismatch");
  ClusterStepReport report;
  report.neighbors = neighborsOf(model_, state, settings_.buffer);
  report.clusters = findClusters(report.neighbors);
  // A driven particle (damping, a load) is never free: forces act on it without neighbours.
  for (std::size_t c = 0; c < report.clusters.count(); ++c) {
    if (report.clusters.isFree[c] != 0 && model_.isDriven(report.clusters.membersOf(c).front())) {
      report.clusters.isFree[c] = 0;
    }
  }
  report.startPosition = state.position;
  report.startOrientation = state.orientation;
  report.displacementLimit = 0.5 * settings_.buffer;
  report.speeds = pointSpeeds(model_, state);
  const std::vector<double>& speeds = report.speeds;
  // Uniform gravity moves all particles alike: it matters only against walls.
  const double gravity = model_.wallCount > 0 ? model_.gravity.norm() : 0.0;
  report.lifetime = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double driven = model_.drivenAcceleration && model_.isDriven(i)
                              ? model_.drivenAcceleration(static_cast<std::uint32_t>(i), state.particle(i))
                              : 0.0;
    report.lifetime =
        std::min(report.lifetime, displacementTime(speeds[i], gravity + driven, report.displacementLimit));
  }
  report.localIndex.resize(state.size());
  for (std::size_t c = 0; c < report.clusters.count(); ++c) {
    const std::span<const std::uint32_t> members = report.clusters.membersOf(c);
    for (std::size_t k = 0; k < members.size(); ++k) {
      report.localIndex[members[k]] = static_cast<std::uint32_t>(k);
    }
  }
  return report;
}

ClusterPass ClusterStepper::integrateAll(const ClusterStepReport& report, double elapsed, double duration,
                                         RigidBodySet& state, ThreadPool* pool,
                                         std::span<double> initialSteps, ContactMemory* memory) {
  const std::size_t clusters = report.clusters.count();
  PassWork& work = *work_;
  work.runs.resize(clusters);
  const bool bounded = settings_.boundDisplacements && report.displacementLimit > 0.0;
  if (memory != nullptr && !model_.keepsMemory()) memory = nullptr;
  if (memory != nullptr) memory->of.resize(model_.size());  // before the clusters share it
  if (bounded) {
    work.start = state;
    work.startSteps.assign(initialSteps.begin(), initialSteps.end());
    if (memory != nullptr) work.startMemory = *memory;
  }
  // Clusters c = k, k + K, k + 2K, ... form chunk k (one workspace each): the expensive clusters
  // spread over the chunks, and no result depends on the chunk a cluster is in.
  const std::size_t chunks = pool != nullptr && pool->threads() > 1 ? std::min<std::size_t>(clusters, 64) : 1;
  if (work.chunks.size() < chunks) work.chunks.resize(chunks);
  std::vector<std::uint8_t> todo(clusters, 1);
  double h = duration;
  double limit = bounded ? (1.0 + kLimitRoundOff) * report.displacementLimit : 0.0;
  const auto chunk = [&](std::size_t k) {
    for (std::size_t c = k; c < clusters; c += chunks) {
      if (todo[c] == 0) continue;
      const double h0 = c < initialSteps.size() ? initialSteps[c] : 0.0;
      work.runs[c] = integrateCluster(report, c, elapsed, h, state, work.chunks[k], h0, limit, memory);
      if (c < initialSteps.size() && report.clusters.isFree[c] == 0)
        initialSteps[c] = work.runs[c].stats.nextStep;
    }
  };
  const auto integrate = [&] {
    if (chunks > 1) {
      pool->run(chunks, chunk);
    } else if (clusters > 0) {
      chunk(0);
    }
  };
  ClusterPass pass;
  integrate();
  // A cluster stopped at the limit at time `reached` < h ends the pass there: the clusters that went
  // further start again from the pass's start and go to that time, with no bound (they stayed
  // within the limit up to it on the first try, so on other steps they stay within it up to the
  // integration's error; where that is more, as with forced steps at cim.min_step, the guard at the
  // next list has the last word: ClusterIntegration::missedContact).
  double earliest = h;
  for (std::size_t c = 0; c < clusters; ++c) {
    if (work.runs[c].stats.bounded) earliest = std::min(earliest, work.runs[c].stats.reached);
  }
  if (earliest < h) {
    h = earliest;
    limit = 0.0;
    for (std::size_t c = 0; c < clusters; ++c) {
      const RkfStats& s = work.runs[c].stats;
      todo[c] = s.bounded && s.reached == h ? 0 : 1;
      if (todo[c] == 0) continue;
      ++pass.retakes;
      for (const std::uint32_t i : report.clusters.membersOf(c)) {
        state.position[i] = work.start.position[i];
        state.velocity[i] = work.start.velocity[i];
        state.orientation[i] = work.start.orientation[i];
        state.bodyAngularVelocity[i] = work.start.bodyAngularVelocity[i];
        if (memory != nullptr) memory->of[i] = work.startMemory.of[i];
      }
      if (c < initialSteps.size()) initialSteps[c] = work.startSteps[c];
    }
    integrate();
  }
  pass.duration = h;
  if (settings_.tally) pass.tally.wallImpulse.assign(model_.wallCount, Vec3::Zero());
  for (std::size_t c = 0; c < clusters; ++c) {  // in cluster order: the sums do not depend on threads
    const ClusterRun& run = work.runs[c];
    pass.total.add(run.stats);
    pass.forceCalls.add(run.calls);
    pass.freeRotationEvaluations += run.freeRotationEvaluations;
    if (settings_.tally) pass.tally.add(run.tally);
    pass.ok = pass.ok && (run.stats.finished || (run.stats.bounded && run.stats.reached == h));
    pass.exhausted = pass.exhausted || run.stats.bounded || h < duration;
  }
  return pass;
}

ClusterStepReport ClusterStepper::step(RigidBodySet& state, double maxDuration, ContactMemory* memory) {
  ClusterStepReport report = prepare(state);
  report.duration = std::min({report.lifetime, settings_.maxStep, maxDuration});
  if (!(report.duration < std::numeric_limits<double>::infinity())) {
    throw std::invalid_argument(
        "ClusterStepper::step: unbounded step (particles at rest and no limit given)");
  }
  const ClusterPass pass = integrateAll(report, 0.0, report.duration, state, nullptr, {}, memory);
  report.duration = pass.duration;
  report.clusterStats.resize(report.clusters.count());
  for (std::size_t c = 0; c < report.clusters.count(); ++c) report.clusterStats[c] = work_->runs[c].stats;
  report.total = pass.total;
  report.forceCalls = pass.forceCalls;
  report.freeRotationEvaluations = pass.freeRotationEvaluations;
  report.tally = pass.tally;
  report.ok = pass.ok;
  wrapPositions(model_.box, state);
  return report;
}

}  // namespace clumplab::cim
