#pragma once
// The watch for a divergence by energy blow-up (DESIGN: NaN, energy blow-up, runaway overlap): an
// unstable step can fling bodies apart without any NaN or deep overlap. What must not grow is the
// balance total + dissipated - external work - walls' work - inserted energy (conserved to second
// order in dt); its growth since the watch began is compared with the energy that moved since
// (the largest kinetic, elastic or gravity-change energy seen), so a run that only ever loses
// energy never trips it. The World samples it every kEveryWorldSteps steps and starts it again
// after every edit that changes the energy without booking it (World::step, checkDivergence).
#include <cstdint>
#include <optional>

#include "core/energy/Energy.hpp"

namespace clumplab {

// What the watch found: the balance grew by `growth` [J] since `since` [s], `share` of the energy
// in motion.
struct EnergyBlowUp {
  double growth = 0.0;
  double since = 0.0;
  double share = 0.0;
};

class EnergyWatch {
 public:
  // Growth of the balance, as a share of the energy in motion, that counts as a blow-up.
  static constexpr double kGrowthLimit = 0.25;
  // Steps between samples (a sample costs about a contact stage; a blow-up grows over many steps).
  static constexpr std::uint64_t kEveryWorldSteps = 64;

  // Share of the largest energy in motion the run has had that a growth must pass too: a pile come to
  // rest after an edit has little energy in motion, and the step's own error on its many contacts
  // (about 1e-5 of the energy of the pour in the default scene at its step) is no blow-up, while a
  // real one passes this within a few samples, growing exponentially.
  static constexpr double kRunScaleShare = 1e-3;

  // Share of the scene's rest scale (observe) that a growth must pass too: a pile at rest, reopened
  // from a file or come to rest after an edit, has almost no energy in motion, and its balance
  // wanders by a part of its contacts' elastic energy (a weight times an overlap far below a pebble
  // radius), while a blow-up lifts and flings bodies by more than a tenth of a pebble radius within
  // a few samples.
  static constexpr double kRestShare = 0.1;

  // Starts again from the next sample (the run's scale stays: it belongs to the scene).
  void reset() { baseline_.reset(); }
  // Takes a sample; a blow-up once the balance grew beyond kGrowthLimit of the energy in motion
  // since the last reset, beyond kRunScaleShare of the largest energy in motion since the watch
  // was made, beyond kRestShare of `restScale` (the energy of lifting every body by its smallest
  // pebble radius against gravity [J]; 0 without gravity) and beyond 1e-6 of all the energy there is
  // (round-off).
  std::optional<EnergyBlowUp> observe(const EnergyReport& e, double restScale = 0.0);

 private:
  struct Baseline {
    double balance = 0.0;    // [J]
    double peGravity = 0.0;  // [J]
    double scale = 0.0;      // largest kinetic, elastic or gravity-change energy since [J]
    double since = 0.0;      // [s]
  };
  std::optional<Baseline> baseline_;
  double runScale_ = 0.0;  // the largest kinetic or elastic energy of every sample so far [J]
};

}  // namespace clumplab
