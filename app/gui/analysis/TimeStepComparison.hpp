#pragma once
// The same scene run at several time steps on a background thread, for the lessons' energy
// comparison (Mutze, Polyspherical grains, §8, Fig. 2: the energy deviation of a second-order method scales
// as dt^2 and returns after each impact). Every variant is advanced to the same sampling instants, so one
// sample holds |E(t) - E(0)| [J] of each. Plain C++ (no Qt): the GUI polls takeSamples().
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/scene/Scene.hpp"

namespace clumplab::gui {

struct ComparisonSample {
  double time = 0.0;               // [s]
  std::vector<double> deviations;  // |E(t) - E(0)| [J], one per time step, in the order given
};

class TimeStepComparison {
 public:
  TimeStepComparison() = default;
  ~TimeStepComparison();  // stops and joins
  TimeStepComparison(const TimeStepComparison&) = delete;
  TimeStepComparison& operator=(const TimeStepComparison&) = delete;

  // Runs `scene` at each of `timeSteps` [s] up to `duration` [s], sampling `samples` times (the
  // instants are multiples of the largest step). Replaces a comparison still running.
  void start(std::shared_ptr<const Scene> scene, std::vector<double> timeSteps, double duration,
             int samples = 400);
  void stop();
  bool running() const { return running_.load(); }
  double progress() const { return progress_.load(); }  // of the simulated span, in [0, 1]
  // The samples produced since the last call (appended to `out`).
  void takeSamples(std::vector<ComparisonSample>& out);
  // "" or why the comparison stopped early (a variant diverged: too large a step).
  std::string problem() const;

 private:
  void run(std::shared_ptr<const Scene> scene, std::vector<double> timeSteps, double duration, int samples);

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
  std::atomic<double> progress_{0.0};
  mutable std::mutex mutex_;
  std::vector<ComparisonSample> pending_;
  std::string problem_;
};

}  // namespace clumplab::gui
