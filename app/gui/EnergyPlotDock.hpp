#pragma once
// The energy plot (seed 001 §8: the total is conserved without friction; with it, total +
// dissipated is): kinetic (translational, rotational), potential (gravity, elastic), total,
// dissipated and total + dissipated; or, toggled, the relative drift of total + dissipated on a log
// scale. Rolling window or whole run, pause, zoom, pinned axes, CSV and PNG export.
#include <QDockWidget>

#include "SimulationLoop.hpp"

class QAction;
class QComboBox;
class QStackedWidget;

namespace clumplab::gui {

class TimeSeriesChart;

class EnergyPlotDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit EnergyPlotDock(QWidget* parent = nullptr);

  void clear();
  void append(const EnergySample& sample);
  void refresh();
  std::size_t pointCount() const;
  TimeSeriesChart* energyChart() const { return energy_; }
  TimeSeriesChart* driftChart() const { return drift_; }
  void setDriftShown(bool on);
  // The chart chosen (energies or drift) drawn at `size` (logical pixels), even when the dock is hidden.
  QImage plotImage(QSize size) const;

 private:
  void exportCsv();
  void exportPng();
  TimeSeriesChart* visibleChart() const;

  TimeSeriesChart* energy_ = nullptr;
  TimeSeriesChart* drift_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QAction* driftAction_ = nullptr;
  double initialConserved_ = 0.0;  // total + dissipated at the first sample [J]
  double energyScale_ = 0.0;       // largest sum of |energy terms| seen [J]
  bool haveInitial_ = false;
};

}  // namespace clumplab::gui
