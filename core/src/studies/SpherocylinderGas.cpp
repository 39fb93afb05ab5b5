#include "core/studies/SpherocylinderGas.hpp"

#include <cmath>
#include <deque>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/base/OrderedDraws.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/world/Generation.hpp"
#include "core/world/World.hpp"

namespace clumplab::cim {

namespace {

constexpr double kEquipartition = 2.0 / 3.0;  // 2 rotational / 3 translational degrees of freedom

// A standard normal deviate (Box-Muller) from the portable generator.
double normal(SplitMix64& rng) {
  const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Rescales all velocities and angular velocities by one factor so the kinetic energy is `target`.
void rescale(World& world, double kinetic, double target) {
  const double factor = std::sqrt(target / kinetic);
  BodyState& b = world.bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    b.velocity[i] *= factor;
    b.angularVelocity[i] *= factor;
  }
  world.stateChanged();
}

// The scene's settings: the paper's frictionless linear spring without damping, no gravity, cim, a
// cube periodic on every axis.
void setGasModel(const SpherocylinderGasRequest& r, WorldModel& model) {
  WorldSettings& s = model.settings;
  s.timeStep = r.rescaleInterval;
  s.gravity = Vec3::Zero();
  s.integrator = IntegratorKind::Cim;
  s.threads = r.threads;
  s.periodic.lower = Vec3::Zero();
  s.periodic.length = Vec3::Constant(r.boxLength);
  s.periodic.periodic = {true, true, true};
  s.cim.buffer = r.buffer;
  model.contact.kind = ContactModel::Kind::Linear;
  model.contact.linear.stiffness = r.stiffness;
  model.contact.linear.dampingFromRestitution = false;
  model.contact.linear.damping = 0.0;
  model.contact.linear.friction = 0.0;
}

// Random sequential placement without overlaps (minimum image), uniform orientations; then
// translational velocities from a normal distribution, zero total momentum, no rotation.
void placeGas(const SpherocylinderGasRequest& r, const Pebble& shaft, const PeriodicBox& box, SplitMix64& rng,
              std::vector<BodyInit>& bodies, std::size_t& attempts) {
  const double reach = 2.0 * shaft.reach();
  while (bodies.size() < r.count) {
    if (++attempts > 1000 * r.count) {
      throw std::runtime_error("spherocylinder gas: the box is too full for " + std::to_string(r.count) +
                               " particles");
    }
    BodyInit b;
    b.position = drawVec3LastFirst([&] { return rng.uniform(); }) * r.boxLength;
    b.orientation = randomRotation(rng);
    const Vec3 u = b.orientation * shaft.axis;
    bool clear = true;
    for (std::size_t j = 0; j < bodies.size() && clear; ++j) {
      const Vec3 sep = box.minimumImage(bodies[j].position - b.position);
      if (sep.squaredNorm() >= reach * reach) continue;
      const double d2 =
          closestShaftPoints(sep, u, shaft.halfLength, bodies[j].orientation * shaft.axis, shaft.halfLength)
              .distance2;
      clear = d2 >= 4.0 * shaft.radius * shaft.radius;
    }
    if (clear) bodies.push_back(b);
  }
  Vec3 mean = Vec3::Zero();
  for (BodyInit& b : bodies) {
    b.velocity = drawVec3LastFirst([&] { return normal(rng); });
    mean += b.velocity;
  }
  mean /= static_cast<double>(bodies.size());
  for (BodyInit& b : bodies) b.velocity -= mean;
}

// The kinetic energies (translational, rotational) [J].
std::pair<double, double> kinetic(const World& world) {
  const EnergyReport e = world.energy();
  return {e.keTranslational, e.keRotational};
}

// Runs, rescaling the kinetic energy to `target` every step, until the running mean of E_rot/E_trans
// over the window is within the tolerance of equipartition (and the last ratio within half of it);
// returns that mean.
double equilibrate(const SpherocylinderGasRequest& r, World& world, double target) {
  const auto windowSteps = static_cast<std::size_t>(std::max(1.0, std::round(r.window / r.rescaleInterval)));
  std::deque<double> ratios;
  double sum = 0.0;
  for (;;) {
    if (!world.step()) throw std::runtime_error("spherocylinder gas: " + world.state().divergence.message);
    const auto [translational, rotational] = kinetic(world);
    const double ratio = rotational / translational;
    ratios.push_back(ratio);
    sum += ratio;
    if (ratios.size() > windowSteps) {
      sum -= ratios.front();
      ratios.pop_front();
    }
    const double meanRatio = sum / static_cast<double>(ratios.size());
    rescale(world, translational + rotational, target);
    if (r.progress) r.progress(world.time(), ratio, meanRatio);
    const bool settled = world.time() >= r.minTime && ratios.size() == windowSteps &&
                         std::abs(meanRatio / kEquipartition - 1.0) <= r.tolerance &&
                         std::abs(ratio / kEquipartition - 1.0) <= 0.5 * r.tolerance;
    if (settled) return meanRatio;
    if (world.time() > r.maxTime) {
      throw std::runtime_error("spherocylinder gas: no equipartition after " + std::to_string(r.maxTime) +
                               " s (mean E_rot/E_trans " + std::to_string(meanRatio) + ")");
    }
  }
}

}  // namespace

SpherocylinderGasResult makeSpherocylinderGas(const SpherocylinderGasRequest& r) {
  if (r.count == 0 || !(r.boxLength > 0.0) || !(r.meanKineticEnergy > 0.0) || !(r.rescaleInterval > 0.0)) {
    throw std::invalid_argument("spherocylinder gas: count, box, energy and interval must be positive");
  }
  const auto rod = std::make_shared<const ClumpTemplate>(
      makeSpherocylinderTemplate("spherocylinder", r.radius, r.shaftLength, r.density));
  const Pebble& shaft = rod->pebbles.front();
  SpherocylinderGasResult result;
  result.volumeFraction = static_cast<double>(r.count) * rod->volume / std::pow(r.boxLength, 3);
  Scene& scene = result.scene;
  setGasModel(r, scene.model);
  scene.model.templates = {rod};
  SplitMix64 rng(r.seed);
  placeGas(r, shaft, scene.model.settings.periodic, rng, scene.bodies, result.placementAttempts);

  std::unique_ptr<World> world = buildWorld(scene);
  const double target = r.meanKineticEnergy * static_cast<double>(r.count);
  {
    const auto [translational, rotational] = kinetic(*world);
    rescale(*world, translational + rotational, target);
  }
  result.meanRatio = equilibrate(r, *world, target);
  result.equilibrationTime = world->time();

  // No spin about the shafts (round-off may have left some), then the kinetic energy exactly.
  BodyState& b = world->bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    const Vec3 u = b.orientation[i] * shaft.axis;
    b.angularVelocity[i] -= b.angularVelocity[i].dot(u) * u;
  }
  world->stateChanged();
  {
    const auto [translational, rotational] = kinetic(*world);
    rescale(*world, translational + rotational, target);
    const auto [t2, r2] = kinetic(*world);
    result.ratio = r2 / t2;
  }
  world->setTime(0.0);
  Scene base;
  base.description = scene.description;
  result.scene = sceneFromWorld(*world, base);
  return result;
}

}  // namespace clumplab::cim
