#pragma once
// The Dzhanibekov mode: a panel on one body's free rotation. Its principal moments and
// Dzhanibekov margin (I2 - I1)/(I3 - I1); an initialiser "spin about principal axis k at omega0
// with perturbation epsilon" applied between two steps; the flip interval predicted by Landau &
// Lifshitz §37 (exact, and for small epsilon) beside the one measured every step on the simulation
// thread (SpinProbe) and the flip count; the energy-ellipsoid inset; plots of omega in the body
// frame, the rotational energy and the drift of E and |L|; the polhode drawn on the body in the 3D
// view; the live scene's gyroscopic term; and the integrator comparison window.
#include <QDockWidget>
#include <QPointer>
#include <QRectF>
#include <functional>
#include <vector>

#include "gui/dzhanibekov/PolhodeOverlay.hpp"
#include "sim/SimulationLoop.hpp"

class QButtonGroup;
class QCheckBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLayout;
class QPushButton;
class QSlider;

namespace clumplab::gui {

class ComparisonWindow;
class EnergyEllipsoidInset;
class TimeSeriesChart;

// What the panel shows, in numbers (SI).
struct DzhanibekovReadout {
  int body = -1;
  Vec3 moments = Vec3::Zero();        // [kg m^2] I1 <= I2 <= I3
  double margin = 0.0;                // (I2 - I1)/(I3 - I1); NaN when the moments are equal
  int axis = 1;                       // the watched principal axis (0, 1, 2)
  double predictedInterval = 0.0;     // [s] T/2 = 2K(k)/lambda (L&L §37); infinity: omega_k never flips
  double smallEpsilonInterval = 0.0;  // [s] its small-perturbation form (axis 2 only; 0 otherwise)
  double measuredInterval = 0.0;      // [s] mean interval between the flips counted; 0 below two
  std::size_t flips = 0;
  double maxConeAngle = 0.0;  // [rad] largest angle between omega and axis k's line since the watch began
  bool watching = false;      // the simulation thread is measuring this body
};

class DzhanibekovDock : public QDockWidget {
  Q_OBJECT
 public:
  // `loop` gives the window's simulation thread now (the window replaces it when it closes).
  DzhanibekovDock(std::function<sim::SimulationLoop*()> loop, QWidget* parent = nullptr);
  ~DzhanibekovDock() override;

  // Watches `body` (-1: none) from now on, about the initialiser's axis.
  void setBody(int body);
  int body() const { return body_; }
  // The initialiser's values: axis 0, 1, 2; omega0 [rad/s]; epsilon (relative).
  void setInitialSpin(int axis, double omega0, double epsilon);
  int axis() const;
  double omega0() const;
  double epsilon() const;
  // Sets the body's spin to perturbedSpin(axis, omega0, epsilon) in its principal frame, between
  // two steps, and restarts the flip count.
  void applySpin();

  // A new frame (and the view's selected body, which the panel follows while shown).
  void showFrame(const sim::SimulationFrame& frame, int selectedBody);
  // Curves for the 3D view: the polhode traced on the body and the loop it runs on (none when the
  // panel is hidden or the polhode is switched off).
  std::vector<render::BodyCurve> bodyCurves() const;
  const DzhanibekovReadout& readout() const { return readout_; }
  EnergyEllipsoidInset* inset() const { return inset_; }
  TimeSeriesChart* omegaChart() const { return omegaChart_; }
  // Shows the inset over the bottom-left corner of `view` (the 3D view) instead of in the panel,
  // while the panel is shown.
  void placeInsetOver(QWidget* view);
  // Areas of the view the inset keeps clear of: the bodies on screen, in the view's pixels. The
  // inset moves to another corner, or shrinks, when it would cover one (keepInsetClear, each frame).
  void setAreasToKeepClear(std::function<std::vector<QRectF>()> areas);
  void keepInsetClear();
  // Opens (or raises) the comparison window on the body's template and spin.
  ComparisonWindow* openComparison();
  ComparisonWindow* comparison() const;

 signals:
  // The user switched the live scene's gyroscopic term.
  void gyroscopicToggled(bool on);

 private:
  QWidget* buildInitialiser();
  QLayout* createAxisButtons(QWidget& box);
  void createSpinRows(QFormLayout& form);
  QWidget* buildResults();
  QWidget* buildPlots();
  void watch();
  void updateReadout(const sim::SimulationFrame& frame);
  void updateLabels();
  void clearHistory();
  // The spin inputs (axis, omega0, epsilon) show what the body does: its largest body-frame
  // component and the rest relative to it. Nothing is applied.
  void showBodySpin(const Vec3& omegaBody);
  void placeInset();
  // The inset's place: the first corner (bottom left, top right, bottom right, top left) and size
  // (full, then smaller) that covers none of `areas`; bottom left at full size when none does.
  static QRect insetPlace(QSize host, const std::vector<QRectF>& areas);
  bool eventFilter(QObject* watched, QEvent* event) override;

  std::function<sim::SimulationLoop*()> loop_;
  int body_ = -1;
  std::uint64_t watchTicket_ = 0;  // commands posted when the watch was asked for
  std::uint64_t sceneGeneration_ = 0;
  std::uint64_t spinGeneration_ = 0;
  std::uint64_t bodyIndexGeneration_ = 0;  // of the latest frame: the body's index is that frame's
  bool showSpinOfBody_ = true;     // a new body or scene: its spin goes into the inputs at its next frame
  double lastTime_ = -1.0;         // [s] of the last plotted point (-1: none)
  double plotStart_ = 0.0;         // [s] of the first
  Vec3 omegaBody_ = Vec3::Zero();  // the body's, in the latest frame
  TemplatePtr clump_;
  DzhanibekovReadout readout_;
  std::vector<Vec3> trail_;  // the watched body's L directions in its frame (SpinReport::trail)

  QLabel* title_ = nullptr;
  QLabel* moments_ = nullptr;
  QButtonGroup* axisGroup_ = nullptr;
  QDoubleSpinBox* omega0_ = nullptr;
  QSlider* omega0Slider_ = nullptr;
  QDoubleSpinBox* epsilon_ = nullptr;
  QSlider* epsilonSlider_ = nullptr;
  QPushButton* apply_ = nullptr;
  QCheckBox* gyroscopic_ = nullptr;
  QCheckBox* showPolhode_ = nullptr;
  QLabel* predicted_ = nullptr;
  QLabel* smallEpsilon_ = nullptr;
  QLabel* measured_ = nullptr;
  QLabel* agreement_ = nullptr;
  QLabel* flips_ = nullptr;
  QLabel* cone_ = nullptr;
  EnergyEllipsoidInset* inset_ = nullptr;
  std::function<std::vector<QRectF>()> areasToKeepClear_;
  QPointer<QWidget> insetHost_;  // the 3D view the inset floats over (null: in the panel)
  TimeSeriesChart* omegaChart_ = nullptr;
  TimeSeriesChart* energyChart_ = nullptr;
  TimeSeriesChart* driftChart_ = nullptr;
  QPointer<ComparisonWindow> comparison_;
  double timeStep_ = 1e-4;  // [s] of the live scene
  ContactModel contact_;
};

}  // namespace clumplab::gui
