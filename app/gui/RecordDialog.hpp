#pragma once
// Asks how to record a movie: the file (its extension picks MP4, WebM, GIF; a folder records a PNG
// sequence), the timing (real time, or deterministic with a duration and slow-motion factor), the
// frame rate and whether the status overlay is kept. Frames are the size of the 3D view.
#include <QDialog>

#include "MovieRecorder.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace clumplab::gui {

class RecordDialog : public QDialog {
  Q_OBJECT
 public:
  RecordDialog(QSize viewSize, QWidget* parent = nullptr);
  RecordingPlan plan() const;

 private:
  void browse();
  void updateEnabled();

  QLineEdit* path_ = nullptr;
  QComboBox* timing_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QDoubleSpinBox* slowMotion_ = nullptr;
  QSpinBox* fps_ = nullptr;
  QCheckBox* status_ = nullptr;
};

}  // namespace clumplab::gui
