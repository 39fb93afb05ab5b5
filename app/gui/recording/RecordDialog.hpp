#pragma once
// Asks how to record a movie: the file (its extension picks MP4, WebM, GIF; a folder records a PNG
// sequence), the timing (real time, or deterministic with a duration and slow-motion factor), the
// frame rate, the frame size (the 3D view's, 720p, 1080p or custom: rendered offscreen), and whether
// the status overlay and the energy plot are in the frames.
#include <QDialog>

#include "gui/recording/MovieRecorder.hpp"

class QCheckBox;
class QLabel;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace clumplab::gui {

class RecordDialog : public QDialog {
  Q_OBJECT
 public:
  RecordDialog(QSize viewSize, QWidget* parent = nullptr);
  // Recording a replay of `frames` trajectory frames over `seconds` of recorded time: one video
  // frame per trajectory frame (the default), or, with a slow-motion factor, one every
  // 1 / (fps x factor) of recorded time; the duration is the replay's and the energy plot (of the
  // live scene) cannot be drawn in.
  void setReplay(int frames, double seconds);
  RecordingPlan plan() const;

 private:
  void addFileRows(QFormLayout& form, const QSettings& settings);
  void addFrameSizeRow(QFormLayout& form, QSize viewSize, const QSettings& settings);
  void addTimingRows(QFormLayout& form, const QSettings& settings);
  void addOverlayRows(QFormLayout& form, const QSettings& settings);
  void rememberPlan() const;
  void browse();
  void updateEnabled();

  QLineEdit* path_ = nullptr;
  QComboBox* timing_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QDoubleSpinBox* slowMotion_ = nullptr;
  QSpinBox* fps_ = nullptr;
  QCheckBox* status_ = nullptr;
  QComboBox* plot_ = nullptr;
  QComboBox* resolution_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QCheckBox* everyFrame_ = nullptr;
  QLabel* replayHint_ = nullptr;
  bool replay_ = false;
};

}  // namespace clumplab::gui
