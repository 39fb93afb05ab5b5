// A clump's cost in a pile, estimated (PileCost.hpp).
#include "core/world/PileCost.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "TimeStepEstimate.hpp"
#include "core/base/SpherePoints.hpp"
#include "core/clump/PebbleOverlaps.hpp"
#include "core/clump/SupportFaces.hpp"

namespace clumplab {

PileCost estimatePileCost(const ClumpTemplate& clump, const ContactModel& law, int bodies) {
  if (bodies < 1) throw std::invalid_argument("a pile has at least one body");
  if (clump.pebbles.empty() || !(clump.mass > 0.0))
    throw std::invalid_argument("template '" + clump.name + "' has no pebbles or no mass");
  PileCost cost;
  cost.law = describeContactLaw(law);
  cost.criticalStep = templateCriticalStep(clump, supportFaces(clump), law);
  cost.timeStep = std::min(cost.criticalStep, 0.1 * templateContactDuration(clump, law));
  cost.bodies = bodies;
  cost.exposedPebbles = exposedPebbleCount(clump);
  const auto buried = static_cast<double>(clump.pebbles.size()) - cost.exposedPebbles;
  cost.secondsPerStep = bodies * (kBodyStepSeconds + cost.exposedPebbles * kPebbleStepSeconds +
                                  buried * kBuriedPebbleStepSeconds);
  cost.simulatedSecondsPerWallSecond = cost.timeStep / cost.secondsPerStep;
  return cost;
}

int exposedPebbleCount(const ClumpTemplate& clump) {
  const std::vector<Pebble>& p = clump.pebbles;
  static const std::vector<Vec3> directions = fibonacciSpherePoints(64);
  const std::vector<std::vector<std::uint32_t>> near = overlappingPebbles(p);
  int exposed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    // A spherocylinder's shaft is sampled as its centre sphere: an estimate.
    const bool buried =
        p[i].isSphere() && std::all_of(directions.begin(), directions.end(), [&](const Vec3& u) {
          const Vec3 x = p[i].center + p[i].radius * u;
          return std::any_of(near[i].begin(), near[i].end(), [&](std::uint32_t j) {
            return p[j].isSphere() && (x - p[j].center).squaredNorm() < p[j].radius * p[j].radius;
          });
        });
    if (!buried) ++exposed;
  }
  return exposed;
}

std::string describeContactLaw(const ContactModel& law) {
  char text[160];
  switch (law.kind) {
    case ContactModel::Kind::Linear:
      if (law.linear.dampingFromRestitution) {
        std::snprintf(text, sizeof text, "linear, kn %.3g N/m, e %.3g", law.linear.stiffness,
                      law.linear.restitution);
      } else {
        std::snprintf(text, sizeof text, "linear, kn %.3g N/m, c %.3g N s/m", law.linear.stiffness,
                      law.linear.damping);
      }
      break;
    case ContactModel::Kind::Hertz:
      std::snprintf(text, sizeof text, "Mutze's Hertz, E %.3g Pa, delta %.3g", law.hertz.young,
                    law.hertz.restitutionSquared);
      break;
    case ContactModel::Kind::HertzMindlin:
      std::snprintf(text, sizeof text, "Hertz-Mindlin, E %.3g Pa, e %.3g", law.hertzMindlin.youngsModulus,
                    law.hertzMindlin.restitution);
      break;
  }
  return text;
}

}  // namespace clumplab
