#pragma once
// The red banner above the 3D view when the run stopped (a divergence, a refused edit): what
// happened, and the ways on that fit its cause: undo the edit that caused it (bodies spawned, a
// parameter changed), resume at the safe step when the step is above it, halve the step, or reset.
#include <string>

#include "gui/window/NoticeBar.hpp"
#include "sim/EditLog.hpp"

class QPushButton;

namespace clumplab::gui {

class DivergenceBanner : public NoticeBar {
  Q_OBJECT
 public:
  explicit DivergenceBanner(QWidget* parent = nullptr);

  struct Problem {
    std::string text;         // hidden when empty
    bool canRecover = false;  // a last good state exists
    sim::DivergenceCause cause = sim::DivergenceCause::Unknown;
    QString undoText;           // the edit undone by the undo fix ("change contact model")
    double timeStep = 0.0;      // [s]
    double safeTimeStep = 0.0;  // [s]; offered when the step is above it
  };
  void showProblem(const Problem& problem);

  // The fixes on show (tests read them as a user does).
  QPushButton* undoButton() const { return undo_; }
  QPushButton* safeStepButton() const { return safeStep_; }
  QPushButton* halveButton() const { return halve_; }

 signals:
  void undoEditRequested();
  void safeStepRequested();
  void halveStepRequested();
  void resetRequested();

 private:
  QPushButton* undo_ = nullptr;
  QPushButton* safeStep_ = nullptr;
  QPushButton* halve_ = nullptr;
};

}  // namespace clumplab::gui
