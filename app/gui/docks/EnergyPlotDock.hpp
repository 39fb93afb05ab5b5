#pragma once
// The energy plot (Mutze, Polyspherical grains, §8: the total is conserved without friction; with it, total +
// dissipated is): kinetic (translational, rotational), potential (gravity, elastic), total,
// dissipated and total + dissipated; or the relative drift of total + dissipated on a log scale; or
// the equipartition ratio <E_rot>/<E_trans> of running time averages (MercuryDPM rigid clumps, §4.1); or the
// same scene run at several time steps in the background, |E(t) - E(0)| of each (Mutze, Polyspherical grains,
// §8). Rolling window or whole run, pause, zoom, pinned axes, CSV and PNG export.
#include <QDockWidget>
#include <memory>

#include "gui/analysis/TimeStepComparison.hpp"
#include "sim/SimulationLoop.hpp"

class QAction;
class QComboBox;
class QStackedWidget;
class QToolBar;

namespace clumplab::gui {

class TimeSeriesChart;

class EnergyPlotDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit EnergyPlotDock(QWidget* parent = nullptr);

  void clear();
  void append(const sim::EnergySample& sample);
  void refresh();
  std::size_t pointCount() const;
  TimeSeriesChart* energyChart() const { return energy_; }
  TimeSeriesChart* driftChart() const { return drift_; }
  void setDriftShown(bool on);
  enum class View { Energies, Drift, Equipartition, TimeSteps, Walls };
  void showView(View view);
  View view() const;
  TimeSeriesChart* ratioChart() const { return ratio_; }
  TimeSeriesChart* comparisonChart() const { return comparison_; }
  TimeSeriesChart* wallChart() const { return walls_; }
  // Runs `scene` at each of `timeSteps` up to `duration` in the background and shows the time-step
  // view; replaces a comparison still running. Stopped by stopComparison() or a new one.
  void startComparison(std::shared_ptr<const Scene> scene, const std::vector<double>& timeSteps,
                       double duration);
  void stopComparison();
  const TimeStepComparison& comparison() const { return comparisonRun_; }
  // The chart chosen (energies or drift) drawn at `size` (logical pixels), even when the dock is hidden.
  QImage plotImage(QSize size) const;

 private:
  void createCharts();
  void addViewChooser(QToolBar& bar);
  void addChartActions(QToolBar& bar);
  void exportCsv();
  void exportPng();
  TimeSeriesChart* visibleChart() const;

  TimeSeriesChart* energy_ = nullptr;
  TimeSeriesChart* drift_ = nullptr;
  TimeSeriesChart* ratio_ = nullptr;
  TimeSeriesChart* comparison_ = nullptr;
  TimeSeriesChart* walls_ = nullptr;  // made for the scene's number of walls
  Vec3 initialMomentum_ = Vec3::Zero();
  QStackedWidget* stack_ = nullptr;
  QComboBox* viewBox_ = nullptr;
  TimeStepComparison comparisonRun_;
  std::vector<TimeSeriesChart*> charts() const;
  void appendWalls(const sim::EnergySample& sample);
  // Puts `chart` in the place of `slot`'s chart in the stack (shown if that was), deleting the old.
  void replaceChart(TimeSeriesChart*& slot, TimeSeriesChart* chart);
  double initialConserved_ = 0.0;  // total + dissipated at the first sample [J]
  double energyScale_ = 0.0;       // largest sum of |energy terms| seen [J]
  bool haveInitial_ = false;
};

}  // namespace clumplab::gui
