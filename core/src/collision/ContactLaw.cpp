#include "core/collision/ContactLaw.hpp"

#include <string>

#include "ContactKernels.hpp"

// The laws for one pair (ContactLaw.hpp), for engines with contacts of their own (the cluster
// integration method and its RK4 baseline): the solver's own kernels behind a public interface.
namespace clumplab {

namespace {
ContactTouch publicTouch(const Touch& t) {
  return {t.normal, t.overlap, t.point, t.hertzRadius};
}
Touch solverTouch(const ContactTouch& t) {
  return {t.normal, t.overlap, t.point, t.hertzRadius};
}
}  // namespace

bool touchSpheres(const Vec3& pa, double ra, const Vec3& pb, double rb, ContactTouch& touch) {
  Touch t{};
  if (!touchPebbles(pa, ra, pb, rb, t)) return false;
  touch = publicTouch(t);
  return true;
}

bool touchWall(const Wall& wall, const Vec3& p, double r, const Vec3& side, ContactTouch& touch) {
  Touch t{};
  if (!touchWall(wall, p, r, side, t)) return false;
  touch = publicTouch(t);
  return true;
}

bool contactModelIsHistoryFree(const ContactModel& model) {
  switch (model.kind) {
    case ContactModel::Kind::Hertz:
      return true;
    case ContactModel::Kind::HertzMindlin:
      return model.hertzMindlin.friction <= 0.0;
    case ContactModel::Kind::Linear:
      break;
  }
  return model.linear.friction <= 0.0 || model.linear.tangentialStiffnessRatio <= 0.0;
}

std::string contactHistoryProblem(const ContactModel& model, const std::string& integrator) {
  if (contactModelIsHistoryFree(model)) return "";
  if (model.kind == ContactModel::Kind::HertzMindlin) {
    return "the " + integrator +
           " integrator takes contact laws without history only, and the hertz-mindlin contact has "
           "Mindlin's tangential spring when \"friction\" > 0: set \"friction\" to 0, use the Hertz "
           "law (regularised friction), or another integrator";
  }
  return "the " + integrator +
         " integrator takes contact laws without history only, and this linear contact has a "
         "tangential spring (friction > 0 with tangential_stiffness_ratio > 0): set \"friction\" to 0 "
         "or \"tangential_stiffness_ratio\" to 0 (a tangential dashpot capped by Coulomb's limit), use "
         "the Hertz law (regularised friction), or another integrator";
}

bool contactKeepsLargestOverlap(const ContactModel& model) {
  return keepsLargestOverlap(model);
}

ContactLawForce historyFreeContactForce(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                        double massEff, double largestOverlap) {
  // No spring history: the spring starts and ends at zero (zero friction zeroes it; kt = 0 ignores it).
  // Mutze's law reads a copy of the largest overlap (a loading beyond it is taken in by
  // commitLargestOverlap).
  Vec3 spring = Vec3::Zero();
  double memory = keepsLargestOverlap(model) ? largestOverlap : 0.0;
  const LawResult r =
      lawForce(model, modelDampingRatio(model), solverTouch(touch), w, w, massEff, spring, memory, 0.0);
  return {r.force, r.dissipative};
}

double commitLargestOverlap(const ContactModel& model, const ContactTouch& touch, double& largestOverlap) {
  if (!keepsLargestOverlap(model)) return 0.0;
  return hertzNormalForce(model.hertz, solverTouch(touch), largestOverlap).lost;
}

ContactLawStep contactForceWithSpring(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                      const Vec3& wDrift, double massEff, Vec3& spring,
                                      double& springStiffness, double dt) {
  const LawResult r = lawForce(model, modelDampingRatio(model), solverTouch(touch), w, wDrift, massEff,
                               spring, springStiffness, dt);
  return {r.force, r.dissipative, r.springEnergyChange, r.hysteresisLoss};
}

double tangentialSpringEnergy(const Vec3& spring, double springStiffness) {
  return 0.5 * springStiffness * spring.squaredNorm();
}

double contactElasticEnergy(const ContactModel& model, const ContactTouch& touch, double largestOverlap) {
  return normalElasticEnergy(model, solverTouch(touch), largestOverlap);
}

}  // namespace clumplab
