#pragma once
// An ordinary differential equation y' = f(t, y) for the Runge-Kutta steppers of the cluster
// integration method (Meland et al., Cluster integration method): the right-hand side, the projection applied
// after each accepted step, and how components group into vectors for the error norm.
#include <functional>
#include <span>

#include <Eigen/Core>

namespace clumplab::cim {

using OdeState = Eigen::VectorXd;

class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  // dydt = f(t, y); dydt has y's size on entry. Non-const: a system may keep scratch buffers, so one
  // object serves one integration at a time (give each thread its own).
  virtual void derivative(double t, const OdeState& y, OdeState& dydt) = 0;
  // Applied to the end state of every accepted step (e.g. renormalising quaternions).
  virtual void project(OdeState& y) { (void)y; }
  // Consecutive components that form one vector in the error norm, as a pattern repeated over the
  // state ({3, 3, 4, 3}: per body a position, a velocity, a quaternion, an angular velocity). Each
  // block's error is measured by its Euclidean norm relative to the block's norm, so the control
  // does not depend on the orientation of the axes and a component passing through zero does not
  // force tiny steps. The default {1} is the usual component-wise norm.
  virtual std::span<const int> errorBlocks() const {
    static constexpr int kScalar[] = {1};
    return kScalar;
  }
  // Optional floor of each block's norm in the error scale, one per block of the state in order
  // (not per pattern entry): the scale becomes atol + rtol max(|y0_B|, |y1_B|, floor_B). A length
  // scale for positions, say, so that the tolerance on a position does not depend on where the
  // origin is. Empty (the default): no floors.
  virtual std::span<const double> errorFloors() const { return {}; }
};

// An OdeSystem from a function, with component-wise error norm and no projection (tests, scalars).
class FunctionOde final : public OdeSystem {
 public:
  using Function = std::function<void(double t, const OdeState& y, OdeState& dydt)>;
  explicit FunctionOde(Function f) : f_(std::move(f)) {}
  void derivative(double t, const OdeState& y, OdeState& dydt) override { f_(t, y, dydt); }

 private:
  Function f_;
};

}  // namespace clumplab::cim
