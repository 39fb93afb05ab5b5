#pragma once
// A world's two time-step estimates (World::timeSteps).

namespace clumplab {

struct TemplateSteps {
  double critical = 0.0;     // [s] the stiffest mode's stability limit, less a tenth
  double recommended = 0.0;  // [s] the critical one, or a tenth of a contact if that is shorter
};

}  // namespace clumplab
