// A clump's cost in a pile, estimated (PileCost.hpp).
#include "core/world/PileCost.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "TimeStepEstimate.hpp"
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
  cost.secondsPerStep =
      bodies * (kBodyStepSeconds + static_cast<double>(clump.pebbles.size()) * kPebbleStepSeconds);
  cost.simulatedSecondsPerWallSecond = cost.timeStep / cost.secondsPerStep;
  return cost;
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
