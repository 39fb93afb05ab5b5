#include "gui/dzhanibekov/IntegratorComparison.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/base/VectorState.hpp"
#include "core/world/World.hpp"
#include "gui/dzhanibekov/Polhode.hpp"

namespace clumplab::gui {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kPublishEvery = std::chrono::milliseconds(16);
constexpr int kStepsPerCheck = 64;  // steps of each world between looks at the clock and the stop flag
}  // namespace

IntegratorComparison::~IntegratorComparison() {
  stop();
}

void IntegratorComparison::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  running_ = false;
}

void IntegratorComparison::start(const ComparisonSetup& setup) {
  stop();
  setup_ = setup;
  {
    const std::lock_guard lock(mutex_);
    latest_.clear();
    problem_.clear();
  }
  ++generation_;
  stop_ = false;
  running_ = true;
  thread_ = std::thread([this, setup] {
    clearUpperVectorState();  // the GUI thread's AVX state, inherited, would slow the runs (VectorState.hpp)
    run(setup);
    running_ = false;
  });
}

std::vector<ComparisonVariant> IntegratorComparison::latest() const {
  const std::lock_guard lock(mutex_);
  return latest_;
}

std::string IntegratorComparison::problem() const {
  const std::lock_guard lock(mutex_);
  return problem_;
}

void IntegratorComparison::run(ComparisonSetup setup) {
  if (!setup.clump || !(setup.timeStep > 0.0)) return;
  std::vector<std::unique_ptr<World>> worlds;
  std::vector<sim::SpinProbe> probes(kIntegrators.size());
  try {
    for (std::size_t v = 0; v < kIntegrators.size(); ++v) {
      WorldSettings settings;
      settings.timeStep = setup.timeStep;
      settings.gravity = Vec3::Zero();
      settings.integrator = kIntegrators[v];
      settings.gyroscopic = setup.gyroscopic;
      settings.threads = 1;  // the live scene keeps the machine's other cores
      worlds.push_back(std::make_unique<World>(settings, setup.contact, std::vector<Wall>{},
                                               std::vector<TemplatePtr>{setup.clump}));
      worlds.back()->addBody({0, Vec3::Zero(), Quat::Identity(), Vec3::Zero(), setup.omegaBody});
      probes[v].start(*worlds.back(), 0, setup.axis);
    }
  } catch (const std::exception& e) {
    const std::lock_guard lock(mutex_);
    problem_ = e.what();
    return;
  }
  const auto publish = [&] {
    std::vector<ComparisonVariant> out;
    for (std::size_t v = 0; v < worlds.size(); ++v) {
      const BodyState& b = worlds[v]->bodies();
      ComparisonVariant c;
      c.integrator = kIntegrators[v];
      c.time = worlds[v]->time();
      c.orientation = b.orientation[0];
      c.omegaBody = b.bodyAngularVelocity(0);
      c.energy = rotationalEnergy(b.moments[0], c.omegaBody);
      c.momentum = angularMomentumMagnitude(b.moments[0], c.omegaBody);
      c.spin = probes[v].report();
      out.push_back(std::move(c));
    }
    const std::lock_guard lock(mutex_);
    latest_ = std::move(out);
  };
  publish();
  const auto begin = Clock::now();
  auto lastPublish = begin;
  const auto steps = static_cast<std::uint64_t>(std::llround(setup.duration / setup.timeStep));
  while (!stop_ && worlds.front()->stepCount() < steps) {
    // Where the paced run should be now (all of it when as fast as possible).
    std::uint64_t target = steps;
    if (!setup.asFastAsPossible) {
      const double wall = std::chrono::duration<double>(Clock::now() - begin).count();
      target = std::min(steps, static_cast<std::uint64_t>(wall * setup.speed / setup.timeStep));
    }
    const std::uint64_t until = std::min(target, worlds.front()->stepCount() + kStepsPerCheck);
    for (std::size_t v = 0; v < worlds.size(); ++v) {
      while (worlds[v]->stepCount() < until) {
        if (!worlds[v]->step()) {
          const std::lock_guard lock(mutex_);
          problem_ =
              std::string(integratorName(kIntegrators[v])) + ": " + worlds[v]->state().divergence.message;
          stop_ = true;
          break;
        }
        probes[v].observe(*worlds[v]);
      }
    }
    const auto now = Clock::now();
    if (now - lastPublish >= kPublishEvery) {
      publish();
      lastPublish = now;
    }
    if (worlds.front()->stepCount() >= target && target < steps) {
      std::this_thread::sleep_for(std::chrono::milliseconds(4));  // ahead of the wall clock
    }
  }
  publish();
}

}  // namespace clumplab::gui
