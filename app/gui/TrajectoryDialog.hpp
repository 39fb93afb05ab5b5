#pragma once
// Asks how to record a trajectory (clumplab-trajectory/1): the file, and the interval between
// frames in simulated seconds or in steps, with the file size that makes.
#include <QDialog>

#include "TrajectoryRecording.hpp"

class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace clumplab::gui {

class ScientificSpinBox;

class TrajectoryDialog : public QDialog {
  Q_OBJECT
 public:
  // `bodies` and `timeStep` [s] of the running scene, for the size estimate.
  TrajectoryDialog(std::size_t bodies, double timeStep, QWidget* parent = nullptr);
  TrajectoryPlan plan() const;

 private:
  void browse();
  void updateEstimate();

  std::size_t bodies_;
  double timeStep_;
  QLineEdit* path_ = nullptr;
  QRadioButton* bySeconds_ = nullptr;
  ScientificSpinBox* seconds_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QLabel* estimate_ = nullptr;
};

}  // namespace clumplab::gui
