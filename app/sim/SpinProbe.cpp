#include "sim/SpinProbe.hpp"
#include "core/world/World.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::sim {

double SpinReport::meanInterval() const {
  if (flipTimes.size() < 2) return 0.0;
  return (flipTimes.back() - flipTimes.front()) / static_cast<double>(flipTimes.size() - 1);
}

void SpinProbe::start(const World& world, std::uint32_t body, int axis) {
  const std::uint64_t generation = report_.generation + 1;
  report_ = SpinReport{};
  report_.generation = generation;
  counter_.clear();
  const BodyState& b = world.bodies();
  if (body >= b.size()) return;
  report_.active = true;
  report_.body = body;
  report_.axis = std::clamp(axis, 0, 2);
  report_.startTime = world.time();
  report_.startOmegaBody = b.bodyAngularVelocity(body);
  const Vec3 lBody = b.moments[body].cwiseProduct(report_.startOmegaBody);
  report_.startEnergy = 0.5 * report_.startOmegaBody.dot(lBody);
  report_.startMomentum = lBody.norm();
  observe(world);
}

void SpinProbe::stop() {
  report_.active = false;
}

void SpinProbe::observe(const World& world) {
  if (!report_.active) return;
  const BodyState& b = world.bodies();
  if (report_.body >= b.size()) {
    report_.active = false;
    return;
  }
  const Vec3 w = b.bodyAngularVelocity(report_.body);
  // The angle to the axis' line, either direction: a flip turns omega over, and 180 degrees after
  // each would say nothing the flip count does not.
  const double along = std::abs(w[report_.axis]);
  const std::size_t before = counter_.count();
  counter_.add(world.time(), w[report_.axis]);
  if (counter_.count() != before) report_.flipTimes.push_back(counter_.times().back());
  const double across = std::sqrt(std::max(0.0, w.squaredNorm() - along * along));
  if (w.squaredNorm() > 0.0) report_.maxConeAngle = std::max(report_.maxConeAngle, std::atan2(across, along));
  std::vector<SpinSample>& samples = report_.samples;
  if (samples.empty() || world.time() >= samples.back().time + SpinReport::kSampleInterval) {
    samples.push_back({world.time(), w});
    if (samples.size() > 2 * SpinReport::kSamples)
      samples.erase(samples.begin(), samples.end() - static_cast<std::ptrdiff_t>(SpinReport::kSamples));
  }
  const Vec3 l = b.moments[report_.body].cwiseProduct(w);
  if (const double m = l.norm(); m > 0.0) {
    std::vector<Vec3>& trail = report_.trail;
    const Vec3 u = l / m;
    if (trail.empty() || (u - trail.back()).norm() >= SpinReport::kTrailStepRad) trail.push_back(u);
    if (trail.size() > 2 * SpinReport::kTrailPoints)
      trail.erase(trail.begin(), trail.end() - static_cast<std::ptrdiff_t>(SpinReport::kTrailPoints));
  }
}

void SpinProbe::bodyRemoved(std::uint32_t body) {
  if (!report_.active) return;
  if (body == report_.body) {
    report_.active = false;
  } else if (body < report_.body) {
    --report_.body;
  }
}

}  // namespace clumplab::sim
