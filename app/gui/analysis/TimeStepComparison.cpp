#include "gui/analysis/TimeStepComparison.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/base/VectorState.hpp"
#include "core/world/World.hpp"

namespace clumplab::gui {

TimeStepComparison::~TimeStepComparison() {
  stop();
}

void TimeStepComparison::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  running_ = false;
}

void TimeStepComparison::start(std::shared_ptr<const Scene> scene, std::vector<double> timeSteps,
                               double duration, int samples) {
  stop();
  {
    const std::lock_guard lock(mutex_);
    pending_.clear();
    problem_.clear();
  }
  stop_ = false;
  progress_ = 0.0;
  running_ = true;
  thread_ =
      std::thread([this, scene = std::move(scene), timeSteps = std::move(timeSteps), duration, samples] {
        clearUpperVectorState();  // the GUI thread's AVX state would slow the runs (VectorState.hpp)
        run(scene, timeSteps, duration, samples);
        running_ = false;
      });
}

void TimeStepComparison::takeSamples(std::vector<ComparisonSample>& out) {
  const std::lock_guard lock(mutex_);
  out.insert(out.end(), pending_.begin(), pending_.end());
  pending_.clear();
}

std::string TimeStepComparison::problem() const {
  const std::lock_guard lock(mutex_);
  return problem_;
}

void TimeStepComparison::run(std::shared_ptr<const Scene> scene, std::vector<double> timeSteps,
                             double duration, int samples) {
  std::vector<std::unique_ptr<World>> worlds;
  std::vector<double> initial;
  for (double dt : timeSteps) {
    Scene variant = *scene;
    variant.model.settings.timeStep = dt;
    variant.model.settings.threads = 1;  // the live scene keeps the machine's other cores
    worlds.push_back(buildWorld(variant));
    initial.push_back(worlds.back()->energy().total());
  }
  const double largest = *std::max_element(timeSteps.begin(), timeSteps.end());
  // Sampling instants are whole multiples of the largest step, reached by every variant exactly.
  const double interval = largest * std::max(1.0, std::round(duration / samples / largest));
  for (long k = 0; !stop_; ++k) {
    const double t = interval * static_cast<double>(k);
    if (t > duration * (1.0 + 1e-12)) break;
    ComparisonSample sample;
    sample.time = t;
    for (std::size_t v = 0; v < worlds.size(); ++v) {
      World& w = *worlds[v];
      const auto target = static_cast<std::uint64_t>(std::llround(t / timeSteps[v]));
      while (w.stepCount() < target && !stop_) {
        if (!w.step()) {
          std::ostringstream why;
          why << "dt = " << timeSteps[v] << " s: " << w.state().divergence.message;
          const std::lock_guard lock(mutex_);
          problem_ = why.str();
          return;
        }
      }
      sample.deviations.push_back(std::abs(w.energy().total() - initial[v]));
    }
    if (stop_) return;
    progress_ = std::min(1.0, t / duration);
    const std::lock_guard lock(mutex_);
    pending_.push_back(std::move(sample));
  }
  progress_ = 1.0;
}

}  // namespace clumplab::gui
