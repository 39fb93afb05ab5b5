#pragma once
// The replay's timeline under the 3D view: back to the live scene, first / previous / play-pause /
// next / last, a slider over the frames, the recorded time and frame number, the play speed
// (0.1x to 10x) and loop. Only shows and asks: ReplayController decides what is shown.
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace clumplab::gui {

class TimelineBar : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineBar(QWidget* parent = nullptr);

  // A new trajectory: its name, frame count and time span [s].
  void setTrajectory(const QString& name, int frames, double startTime, double endTime);
  // The frame shown and its recorded time [s].
  void showFrame(int frame, double time);
  void showPlaying(bool playing);
  double speed() const;  // recorded seconds per wall second
  void setSpeed(double speed);
  bool loop() const;
  void setLoop(bool on);
  QSlider* slider() const { return slider_; }

  static constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0};

 signals:
  void seekRequested(int frame);
  void stepRequested(int frames);  // -1 or +1 (or a jump to an end)
  void playToggled(bool play);
  void speedChanged(double speed);
  void loopToggled(bool on);
  void leaveRequested();

 private:
  QToolButton* button(const QString& tip, int standardIcon);
  QToolButton* play_ = nullptr;
  QToolButton* loop_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* name_ = nullptr;
  QLabel* time_ = nullptr;
  QLabel* frame_ = nullptr;
  QComboBox* speed_ = nullptr;
  double startTime_ = 0.0;  // [s]
  double endTime_ = 0.0;    // [s]
  int frames_ = 0;
};

}  // namespace clumplab::gui
