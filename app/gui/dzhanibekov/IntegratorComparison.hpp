#pragma once
// The Dzhanibekov mode's comparison: one body (a template and a body-frame spin) in free space run
// three times at once on a background thread, under leapfrog, midpoint and splitting, each watched
// every step by a SpinProbe; optionally without the gyroscopic term omega x I omega, which removes
// the flip. Paced against the wall clock x a speed, or as fast as possible, up to a duration.
// Plain C++ (no Qt): the window polls latest().
#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/integrate/Integrator.hpp"
#include "sim/SpinProbe.hpp"

namespace clumplab::gui {

struct ComparisonSetup {
  TemplatePtr clump;
  Vec3 omegaBody = Vec3::Zero();  // [rad/s] initial angular velocity in the principal frame
  int axis = 1;                   // principal axis whose flips are counted (0, 1, 2)
  double timeStep = 1e-4;         // [s]
  ContactModel contact;           // unused in free space, but a World needs a valid one
  bool gyroscopic = true;
  double speed = 1.0;  // simulated seconds per wall second
  bool asFastAsPossible = false;
  double duration = 30.0;  // [s] simulated
};

// One integrator's run, as last published.
struct ComparisonVariant {
  IntegratorKind integrator = IntegratorKind::Leapfrog;
  double time = 0.0;  // [s]
  Quat orientation = Quat::Identity();
  Vec3 omegaBody = Vec3::Zero();  // [rad/s]
  double energy = 0.0;            // [J] rotational
  double momentum = 0.0;          // [kg m^2/s] |L|
  sim::SpinReport spin;           // flips, cone, energy and |L| at the start
};

class IntegratorComparison {
 public:
  static constexpr std::array<IntegratorKind, 3> kIntegrators = {
      IntegratorKind::Leapfrog, IntegratorKind::Midpoint, IntegratorKind::Splitting};

  IntegratorComparison() = default;
  ~IntegratorComparison();  // stops and joins
  IntegratorComparison(const IntegratorComparison&) = delete;
  IntegratorComparison& operator=(const IntegratorComparison&) = delete;

  // Starts over with `setup` (a run in progress is stopped first).
  void start(const ComparisonSetup& setup);
  void stop();
  bool running() const { return running_.load(); }
  const ComparisonSetup& setup() const { return setup_; }  // GUI thread: of the last start
  // The variants as last published (empty before the first publication of a start).
  std::vector<ComparisonVariant> latest() const;
  // Changes with each start, so readers can tell a new run from the old one.
  std::uint64_t generation() const { return generation_.load(); }
  std::string problem() const;  // "" or why a run stopped early

 private:
  void run(ComparisonSetup setup);

  ComparisonSetup setup_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> generation_{0};
  mutable std::mutex mutex_;
  std::vector<ComparisonVariant> latest_;
  std::string problem_;
};

}  // namespace clumplab::gui
