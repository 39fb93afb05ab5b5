#include "core/step/WorkBooking.hpp"

#include "base/BodyLoop.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/MeshWallContacts.hpp"
#include "core/energy/EnergyLedger.hpp"
#include "core/forces/ExternalLoad.hpp"
#include "core/step/BodyForces.hpp"

namespace clumplab {

void WorkBooking::bookCarried(double f, double dt, const Forces& forces, const Books& books) {
  if (f < 1.0) {  // for integrators that evaluate forces before the step's end
    stepStartVelocity_ = forces.bodies.velocity;
    stepStartAngularVelocity_ = forces.bodies.angularVelocity;
  }
  const double carried = f - 0.5;  // share of the step driven by the last evaluation's forces
  if (carried <= 0.0) return;
  // The last step ended with these powers unless forces or velocities changed since.
  if (!lastPowersCurrent_) lastPowers_ = powers(0.0, forces);
  book(carried * dt, lastPowers_, forces, books);
}

void WorkBooking::bookNew(double f, double dt, const Forces& forces, const Books& books) {
  lastPowers_ = powers(1.0 - f, forces);
  lastPowersCurrent_ = f == 1.0;  // then they are the powers at the synchronous end-of-step state
  book((1.0 - (f - 0.5)) * dt, lastPowers_, forces, books);
}

void WorkBooking::book(double weight, const Powers& p, const Forces& forces, const Books& books) {
  books.ledger.dissipated -= weight * p.dissipative;
  books.ledger.externalWork += weight * p.external;
  for (std::size_t w = 0; w < books.wallImpulse.size(); ++w)
    books.wallImpulse[w] += weight * forces.wallForce[w];
  // Moving mesh walls: the work of the contact forces at the surface velocity u, and the dissipation
  // at the relative velocity (the bodies' share, F_diss . v, is in p.dissipative).
  books.ledger.wallWork += weight * forces.meshContacts.wallPower();
  books.ledger.dissipated += weight * forces.meshContacts.wallDissipativePower();
}

WorkBooking::Powers WorkBooking::powers(double startWeight, const Forces& forces) {
  // Sum over contacts of F_diss . w (w at the contact point, lever arms at the force time) is the
  // sum over bodies of F_diss . v + T_diss . omega: one pass over bodies.
  const BodyState& bodies = forces.bodies;
  const DissipativeParts& dissipative = forces.dissipative;
  const bool interpolate = startWeight != 0.0;  // only then are the step-start velocities kept
  const auto velocity = [&](std::size_t b) -> Vec3 {
    const Vec3& v = bodies.velocity[b];
    return interpolate ? Vec3(v + startWeight * (stepStartVelocity_[b] - v)) : v;
  };
  const auto angularVelocity = [&](std::size_t b) -> Vec3 {
    const Vec3& w = bodies.angularVelocity[b];
    return interpolate ? Vec3(w + startWeight * (stepStartAngularVelocity_[b] - w)) : w;
  };
  const std::size_t n = bodies.size();
  powerChunks_.assign(bodyChunkCount(n), 0.0);
  forEachBodyChunk(forces.pool, n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    double power = 0.0;
    if (interpolate) {
      for (std::size_t b = begin; b < end; ++b)
        power += dissipative.force[b].dot(velocity(b)) + dissipative.torque[b].dot(angularVelocity(b));
    } else {  // the same sums without the interpolation in the loop
      for (std::size_t b = begin; b < end; ++b) {
        power += dissipative.force[b].dot(bodies.velocity[b]) +
                 dissipative.torque[b].dot(bodies.angularVelocity[b]);
      }
    }
    powerChunks_[chunk] = power;
  });
  Powers p;
  for (const double chunkPower : powerChunks_) p.dissipative += chunkPower;
  for (std::size_t i = 0; i < forces.loads.size(); ++i) {
    const std::uint32_t b = forces.loads[i].body;
    p.external += forces.loads[i].force.dot(velocity(b)) + forces.loadTorque[i].dot(angularVelocity(b));
  }
  return p;
}

}  // namespace clumplab
