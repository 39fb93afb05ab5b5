#pragma once
// Asks how to record a trajectory (clumplab-trajectory/1): the file, and the interval between
// frames (frames per simulated second, or one every N steps), with the file size that makes.
#include <QDialog>

#include "sim/TrajectoryRecording.hpp"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace clumplab::gui {

class TrajectoryDialog : public QDialog {
  Q_OBJECT
 public:
  // `bodies` and `timeStep` [s] of the running scene, for the size estimate.
  TrajectoryDialog(std::size_t bodies, double timeStep, QWidget* parent = nullptr);
  sim::TrajectoryPlan plan() const;

 private:
  void browse();
  void updateEstimate();

  std::size_t bodies_;
  double timeStep_;
  QLineEdit* path_ = nullptr;
  QRadioButton* bySeconds_ = nullptr;
  QDoubleSpinBox* rate_ = nullptr;  // frames per simulated second
  QSpinBox* steps_ = nullptr;
  QLabel* estimate_ = nullptr;
};

}  // namespace clumplab::gui
