#include "core/clump/ClumpTemplate.hpp"

#include "core/base/Assert.hpp"

#include <algorithm>
#include <stdexcept>

namespace clumplab {

ClumpTemplate makeTemplate(std::string name, const std::vector<Pebble>& inputPebbles,
                           const MassProperties& massProperties, std::string inertiaMethod, double density) {
  if (inputPebbles.empty()) throw std::invalid_argument("a clump needs at least one pebble");
  if (!(massProperties.mass > 0.0)) throw std::invalid_argument("a clump needs a positive mass");
  ClumpTemplate t;
  t.name = std::move(name);
  t.inertiaMethod = std::move(inertiaMethod);
  t.mass = massProperties.mass;
  t.volume = massProperties.volume;
  t.density = density;
  t.centerOfMassInInput = massProperties.centerOfMass;
  const PrincipalFrame frame = principalFrame(massProperties.inertiaTensor);
  if (!(frame.moments.minCoeff() > 0.0)) {
    throw std::invalid_argument("the inertia tensor is not positive definite");
  }
  t.principalMoments = frame.moments;
  CLUMPLAB_ASSERT(frame.moments[0] <= frame.moments[1] && frame.moments[1] <= frame.moments[2],
                  "principal moments come out ascending");
  // MercuryDPM rigid clumps, eq. 24: x := Q x with Q = axes^T (rows are the principal directions, eq. 26).
  const Mat3 bodyFromInput = frame.axes.transpose();
  t.rotationFromInput = Quat(bodyFromInput).normalized();
  t.minPebbleRadius = inputPebbles.front().radius;
  for (const Pebble& p : inputPebbles) {
    Pebble b;
    b.center = bodyFromInput * (p.center - massProperties.centerOfMass);
    b.radius = p.radius;
    b.axis = bodyFromInput * p.axis;
    b.halfLength = p.halfLength;
    t.pebbles.push_back(b);
    // Mutze, Polyspherical grains, eq. 32: r = sup(|x_i| + r_i) (a capsule reaches half its shaft further).
    t.boundingRadius = std::max(t.boundingRadius, b.center.norm() + b.reach());
    t.minPebbleRadius = std::min(t.minPebbleRadius, b.radius);
  }
  return t;
}

ClumpTemplate scaledTemplate(const ClumpTemplate& source, double factor) {
  ClumpTemplate t = source;
  for (Pebble& p : t.pebbles) {
    p.center *= factor;
    p.radius *= factor;
    p.halfLength *= factor;
  }
  const double f3 = factor * factor * factor;
  t.mass *= f3;
  t.volume *= f3;
  t.principalMoments *= f3 * factor * factor;
  t.centerOfMassInInput *= factor;
  t.boundingRadius *= factor;
  t.minPebbleRadius *= factor;
  if (t.metrics) {
    t.metrics->meshVolume *= f3;
    t.metrics->clumpVolume *= f3;
    t.metrics->largestProtrusion *= factor;
    t.metrics->largestGap *= factor;
  }
  if (t.mesh) {
    auto scaled = std::make_shared<TriangleMesh>(*t.mesh);
    for (Vec3& v : scaled->vertices) v *= factor;
    t.mesh = std::move(scaled);
  }
  return t;
}

}  // namespace clumplab
