// The critical time step from the stiffest contact modes of the templates (TimeStepEstimate.hpp).
#include "TimeStepEstimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>

#include "core/collision/ContactStiffness.hpp"

namespace clumplab {

namespace {

// A mode of angular frequency^2 w2 [1/s^2] and damping rate g [1/s]: its stability limit, less a
// tenth. Near the limit the scheme's energy error grows without bound (the kinetic energy of the
// synchronous velocity swings by a factor 1 / (1 - (w dt / 2)^2)): a run at 0.96 of the limit, stable
// in theory, swings by more than 40% of the energy in motion and the energy watch rightly stops it.
double modeStep(double w2, double g) {
  constexpr double kMargin = 0.9;
  const double denominator = std::sqrt(std::max(w2, 0.0) + g * g) + g;
  return denominator > 0.0 ? kMargin * 2.0 / denominator : std::numeric_limits<double>::infinity();
}

// Stiffness K and damping C (mass-scaled, [1/s^2] and [1/s]): every mode of K with the damping it
// sees, and the most damped direction of C with the stiffness it sees (exact when C is proportional
// to K, as when one law's dashpots follow its springs).
double stiffestModeStep(const Mat6& stiffness, const Mat6& damping) {
  double step = std::numeric_limits<double>::infinity();
  const Eigen::SelfAdjointEigenSolver<Mat6> modes(stiffness);
  for (int j = 0; j < 6; ++j) {
    const auto v = modes.eigenvectors().col(j);
    step = std::min(step, modeStep(modes.eigenvalues()[j], v.dot(damping * v)));
  }
  const Eigen::SelfAdjointEigenSolver<Mat6> dashpots(damping);
  const auto v = dashpots.eigenvectors().col(5);
  return std::min(step, modeStep(v.dot(stiffness * v), dashpots.eigenvalues()[5]));
}

}  // namespace

double templateCriticalStep(const ClumpTemplate& clump, const std::vector<SupportFace>& faces,
                            const ContactModel& law) {
  const ContactStiffness s = contactStiffness(law, clump.minPebbleRadius);
  const double rootMass = std::sqrt(clump.mass);
  const double cn = s.normalDampingPerRootMass * rootMass + s.normalDampingFixed;
  const double ct = s.tangentialDampingPerRootMass * rootMass + s.tangentialDampingFixed;
  constexpr double kBothSides = 2.0;
  // One contact at the bounding radius, normal or tangential: one degree of freedom.
  const PointContactModes point = pointContactModes(clump);
  double step =
      std::min(modeStep(kBothSides * s.normal * point.normal, kBothSides * cn * point.normal),
               modeStep(kBothSides * s.tangential * point.tangential, kBothSides * ct * point.tangential));
  for (const SupportFace& f : faces) {
    step = std::min(step, stiffestModeStep(kBothSides * (s.normal * f.normal + s.tangential * f.tangential),
                                           kBothSides * (cn * f.normal + ct * f.tangential)));
  }
  return step;
}

double templateContactDuration(const ClumpTemplate& clump, const ContactModel& law) {
  const double k = contactStiffness(law, clump.minPebbleRadius).normal;
  return M_PI / std::sqrt(k * pointContactModes(clump).normal);
}

TemplateSteps TimeStepEstimate::steps(const ContactModel& law, const std::vector<TemplatePtr>& templates,
                                      const std::vector<bool>& inPlay) {
  if (!(law == law_)) {
    law_ = law;
    steps_.clear();
  }
  // Templates are only ever appended; a different one at an index (another world's) starts afresh.
  std::size_t same = 0;
  while (same < keys_.size() && same < templates.size() && keys_[same] == templates[same].get()) ++same;
  keys_.resize(same);
  faces_.resize(same);
  if (steps_.size() > same) steps_.resize(same);
  for (std::size_t k = same; k < templates.size(); ++k) {
    keys_.push_back(templates[k].get());
    faces_.push_back(supportFaces(*templates[k]));
  }
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  TemplateSteps out{kInfinity, kInfinity};
  for (std::size_t k = 0; k < templates.size(); ++k) {
    if (!inPlay[k]) continue;
    if (steps_.size() <= k) steps_.resize(k + 1, TemplateSteps{-1.0, -1.0});
    if (steps_[k].critical < 0.0) {
      const double critical = templateCriticalStep(*templates[k], faces_[k], law_);
      steps_[k] = {critical, std::min(critical, 0.1 * templateContactDuration(*templates[k], law_))};
    }
    out.critical = std::min(out.critical, steps_[k].critical);
    out.recommended = std::min(out.recommended, steps_[k].recommended);
  }
  return out;
}

}  // namespace clumplab
