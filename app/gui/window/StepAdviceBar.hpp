#pragma once
// The amber bar above the 3D view when an edit (a body added, a parameter changed) brought the safe
// time step below the step: the run paused before anything could diverge, and the bar offers the
// safe step in one click, or running on at the step as it is.
#include "gui/window/NoticeBar.hpp"

class QPushButton;

namespace clumplab::gui {

class StepAdviceBar : public NoticeBar {
  Q_OBJECT
 public:
  explicit StepAdviceBar(QWidget* parent = nullptr);

  // Shown while `advised` (the frame's stepAdvised), with the step [s] and the safe step [s].
  void showAdvice(bool advised, double timeStep, double safeTimeStep);

  QPushButton* useSafeStepButton() const { return useSafe_; }
  QPushButton* keepStepButton() const { return keep_; }

 signals:
  void useSafeStepRequested(double safeTimeStep);
  void keepStepRequested();

 private:
  QPushButton* useSafe_ = nullptr;
  QPushButton* keep_ = nullptr;
  double safe_ = 0.0;  // [s]
};

}  // namespace clumplab::gui
