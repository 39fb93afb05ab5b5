#pragma once
// The Dzhanibekov mode's comparison window: the same body run under leapfrog, midpoint and
// splitting side by side (IntegratorComparison), each in a small 3D view with its flips, measured
// interval against L&L §37 and energy and |L| drift; the time step, pace and duration; and the
// gyroscopic term, whose removal makes the flip disappear.
#include <QTimer>
#include <QWidget>
#include <array>

#include "gui/dzhanibekov/IntegratorComparison.hpp"
#include "gui/dzhanibekov/PolhodeOverlay.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace clumplab::gui {

class ScientificSpinBox;
class SnapshotView;

class ComparisonWindow : public QWidget {
  Q_OBJECT
 public:
  explicit ComparisonWindow(QWidget* parent = nullptr);
  ~ComparisonWindow() override;

  // Runs `setup` (its time step, pace, duration and gyroscopic term shown in the controls);
  // `title` names the body.
  void start(const ComparisonSetup& setup, const QString& title);
  // Restarts with the controls' values (what Restart and every control do).
  void restart();
  void setGyroscopic(bool on);
  void setAsFastAsPossible();
  IntegratorComparison& comparison() { return comparison_; }
  // T/2 predicted for the setup (L&L §37; infinity when omega_k never changes sign).
  double predictedInterval() const { return predicted_; }
  // Polls the run and redraws (the timer does this 30 times a second).
  void refresh();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  struct Pane {
    QLabel* title = nullptr;
    SnapshotView* view = nullptr;
    QLabel* stats = nullptr;
  };
  ComparisonSetup fromControls() const;
  QString statsText(const ComparisonVariant& v) const;

  IntegratorComparison comparison_;
  ComparisonSetup setup_;
  std::array<Pane, 3> panes_;
  QLabel* heading_ = nullptr;
  QLabel* note_ = nullptr;
  ScientificSpinBox* timeStep_ = nullptr;
  QComboBox* pace_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QCheckBox* gyroscopic_ = nullptr;
  QTimer timer_;
  double predicted_ = 0.0;
};

}  // namespace clumplab::gui
