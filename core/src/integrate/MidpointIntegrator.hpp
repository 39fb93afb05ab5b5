#pragma once
#include <vector>

#include "VelocityPredictor.hpp"
#include "core/base/Math.hpp"
#include "core/integrate/Integrator.hpp"

namespace clumplab {

struct BodyState;

// Mutze's direct midpoint method (Mutze, Polyspherical grains, §6-7, eq. 58-69): free motion for dt/2, a
// velocity change from the forces evaluated once at the midpoint (with the previous accelerations used to
// estimate midpoint velocities, eq. 66 and 68), and free motion for dt/2. Rotation vectors and
// their composition (eq. 6-7) are carried out with the equivalent unit quaternions, which avoids
// the singularity of rotation vectors at half turns.
class MidpointIntegrator final : public ForceStageIntegrator {
 public:
  void step(const StepContext& step, ForceStage& forces) override;
  double forceTimeFraction() const override { return 0.5; }  // forces at the midpoint (eq. 67)
  void reset() override {
    acceleration_.clear();
    angularAcceleration_.clear();
  }
  void removeBody(std::size_t index) override {
    if (index >= acceleration_.size()) return;
    acceleration_.erase(acceleration_.begin() + static_cast<std::ptrdiff_t>(index));
    angularAcceleration_.erase(angularAcceleration_.begin() + static_cast<std::ptrdiff_t>(index));
  }
  // A new body starts with alpha = beta = 0, as every body does in the initial state (§7); the
  // others keep theirs.
  void addBody(const BodyState& bodies) override;
  std::unique_ptr<Integrator> clone() const override { return std::make_unique<MidpointIntegrator>(*this); }
  std::size_t memoryBytes(std::size_t /*bodies*/) const override {
    return sizeof(*this) + (acceleration_.size() + angularAcceleration_.size()) * sizeof(Vec3);
  }

  // Eq. 58-59: the free rigid-body flow Phi over tau for body b (second-order form, see .cpp).
  static void freeMotion(BodyState& s, std::size_t b, double tau, bool gyroscopic);

 private:
  std::vector<Vec3> acceleration_;         // alpha_k [m/s^2]
  std::vector<Vec3> angularAcceleration_;  // beta_k [rad/s^2]
  VelocityCopy start_;                     // scratch of each step: v_n and omega_n
};

}  // namespace clumplab
