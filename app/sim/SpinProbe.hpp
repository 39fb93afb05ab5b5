#pragma once
// What the Dzhanibekov mode measures of one body, every time step (plain C++, run by whoever steps
// the World: the simulation thread, the integrator comparison): the flips of the spin about a
// chosen principal axis k, i.e. the sign changes of omega_k in the body frame timed by linear
// interpolation between steps (FlipCounter), how far omega strays from axis k, the rotational
// energy and |L| the watch started from (for the drift plots), and the path of L's direction in the
// body frame (the polhode the body is tracing), sampled by angle so it stays smooth at any speed.
#include <cstdint>
#include <vector>

#include "core/clump/FreeRotation.hpp"

namespace clumplab {
class World;
}  // namespace clumplab

namespace clumplab::sim {

// omega in the body frame at one instant.
struct SpinSample {
  double time = 0.0;              // [s]
  Vec3 omegaBody = Vec3::Zero();  // [rad/s]
};

struct SpinReport {
  bool active = false;
  std::uint32_t body = 0;
  int axis = 1;                        // principal axis k watched: 0, 1, 2 for I1, I2, I3
  std::uint64_t generation = 0;        // changes each time the watch is (re)started
  double startTime = 0.0;              // [s] world time of the start
  Vec3 startOmegaBody = Vec3::Zero();  // [rad/s] body frame, at the start (for the prediction)
  double startEnergy = 0.0;            // [J] rotational kinetic energy at the start
  double startMomentum = 0.0;          // [kg m^2/s] |L| about the centre of mass at the start
  std::vector<double> flipTimes;       // [s] sign changes of omega_k
  double maxConeAngle = 0.0;           // [rad] largest angle between omega and axis k's line since the start
  // Unit vectors along L in the body frame, a new one each time L turned kTrailStepRad in the
  // body; the newest last, between kTrailPoints and twice that many kept.
  std::vector<Vec3> trail;
  static constexpr double kTrailStepRad = 0.01;
  static constexpr std::size_t kTrailPoints = 1200;
  // omega every kSampleInterval of simulated time, the newest last, between kSamples and twice
  // that many kept: the plots stay smooth however many steps a displayed frame spans.
  std::vector<SpinSample> samples;
  static constexpr double kSampleInterval = 1.0 / 240.0;  // [s]
  static constexpr std::size_t kSamples = 2400;

  std::size_t flips() const { return flipTimes.size(); }
  // Mean interval between successive flips [s]; 0 with fewer than two.
  double meanInterval() const;
};

class SpinProbe {
 public:
  // Watches `body` about principal axis `axis` from the world's current state on.
  void start(const World& world, std::uint32_t body, int axis);
  void stop();
  bool active() const { return report_.active; }
  // After each step (a body index out of range stops the watch).
  void observe(const World& world);
  // World::removeBody(body) happened: follow the watched body's index, or stop if it was removed.
  void bodyRemoved(std::uint32_t body);
  const SpinReport& report() const { return report_; }

 private:
  SpinReport report_;
  FlipCounter counter_;
};

}  // namespace clumplab::sim
