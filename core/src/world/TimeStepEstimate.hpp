#pragma once
// The critical time step of a world's templates under its contact law (World::timeSteps),
// cached: the faces of each template once, the step of each template once per contact law.
#include <cstddef>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"
#include "core/clump/SupportFaces.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/world/TimeSteps.hpp"

namespace clumplab {

// The largest stable step of a body of `clump` under `law`: the stiffest of its faces (SupportFaces.hpp)
// and of a single contact at its bounding radius, pressed from both sides (a pebble pinched between
// two walls, a body between two others: twice the springs and dashpots), each mode with its dashpot.
// For the kick-drift-kick schemes with the predicted velocity (VelocityPredictor.hpp) a mode of
// angular frequency w and damping rate g (x'' = -w^2 x - g x') is stable for
// dt <= 2 / (sqrt(w^2 + g^2) + g), which is 2/w undamped and 1/g overdamped [s].
double templateCriticalStep(const ClumpTemplate& clump, const std::vector<SupportFace>& faces,
                            const ContactModel& law);

// How long one pebble of `clump` stays in contact with a wall under `law` (its stiffest single
// contact, the dashpot left out): pi / sqrt(k (1/m + |I^(-1/2) (p x n)|^2)) [s].
double templateContactDuration(const ClumpTemplate& clump, const ContactModel& law);

class TimeStepEstimate {
 public:
  // The smallest steps over templates[k] for which inPlay[k] [s]; infinity for none.
  TemplateSteps steps(const ContactModel& law, const std::vector<TemplatePtr>& templates,
                      const std::vector<bool>& inPlay);

 private:
  ContactModel law_;
  std::vector<const ClumpTemplate*> keys_;       // the templates faces_ and steps_ belong to
  std::vector<std::vector<SupportFace>> faces_;  // per template
  std::vector<TemplateSteps> steps_;             // per template, under law_ (critical < 0: not yet)
};

}  // namespace clumplab
