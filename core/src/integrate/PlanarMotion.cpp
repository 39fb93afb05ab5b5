#include "PlanarMotion.hpp"

#include "BlockedMotion.hpp"
#include "VelocityKick.hpp"
#include "base/BodyLoop.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

double normalInertia(const BodyState& s, std::size_t b, const Vec3& n) {
  const Vec3 nb = s.orientation[b].conjugate() * n;  // n in the principal frame
  return nb.dot(s.moments[b].cwiseProduct(nb));
}

void planarDrift(const PlaneConstraint& plane, BodyState& s, std::size_t b, double tau) {
  s.position[b] = plane.onPlane(s.position[b] + tau * s.velocity[b]);
  s.orientation[b] = renormalized(rotationFromVector(tau * s.angularVelocity[b]) * s.orientation[b]);
}

void planarSpinKick(const PlaneConstraint& plane, BodyState& s, std::size_t b, double h) {
  const double inertia = normalInertia(s, b, plane.normal);
  s.angularVelocity[b] = plane.alongNormal(s.angularVelocity[b] + (h / inertia) * s.torque[b]);
}

void planarKickDriftKick(const StepContext& step, ForceStage& forces, VelocityCopy& drifted) {
  BodyState& s = step.bodies;
  const VelocityKicks kickVelocity(forces);  // v += h F / m, Boris-rotated where a charge meets B
  const PlaneConstraint& plane = step.model.settings.plane;
  const double dt = step.model.settings.timeStep;
  const double h = 0.5 * dt;
  forces.refreshIfStale();
  drifted.resize(s.size());
  forEachBody(step.pool, s.size(), [&](std::size_t b) {
    const Vec3 v0 = s.velocity[b], w0 = s.angularVelocity[b];
    kickVelocity(s, b, h);
    s.velocity[b] = plane.inPlane(s.velocity[b]);
    if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
    planarSpinKick(plane, s, b, h);
    planarDrift(plane, s, b, dt);
    drifted.linear[b] = s.velocity[b];
    drifted.angular[b] = s.angularVelocity[b];
    s.velocity[b] = kickedTwice(v0, s.velocity[b]);
    s.angularVelocity[b] = kickedTwice(w0, s.angularVelocity[b]);
  });
  computeForcesAtPredictedVelocities(forces, s, drifted);
  forEachBody(step.pool, s.size(), [&](std::size_t b) {
    kickVelocity(s, b, h);
    s.velocity[b] = plane.inPlane(s.velocity[b]);
    if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
    planarSpinKick(plane, s, b, h);
  });
}

}  // namespace clumplab
