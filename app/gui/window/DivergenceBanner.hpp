#pragma once
// The red banner above the 3D view when the run stopped (a divergence, a refused edit): what
// happened, and the two ways on: back to the last good state with half the time step, or a reset.
#include <QWidget>
#include <string>

class QLabel;
class QPushButton;

namespace clumplab::gui {

class DivergenceBanner : public QWidget {
  Q_OBJECT
 public:
  explicit DivergenceBanner(QWidget* parent = nullptr);

  // Shows `problem` (hidden when it is empty); the fix is offered when a last good state exists.
  void showProblem(const std::string& problem, bool canRecover);

 signals:
  void halveStepRequested();
  void resetRequested();

 private:
  QLabel* text_ = nullptr;
  QPushButton* fix_ = nullptr;
};

}  // namespace clumplab::gui
