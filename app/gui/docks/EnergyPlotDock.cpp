#include "gui/docks/EnergyPlotDock.hpp"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <cmath>

#include "gui/widgets/TimeSeriesChart.hpp"

namespace clumplab::gui {

EnergyPlotDock::EnergyPlotDock(QWidget* parent) : QDockWidget(tr("Energy"), parent) {
  setObjectName(QStringLiteral("energyDock"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(0);
  auto* bar = new QToolBar;
  bar->setIconSize(QSize(16, 16));
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  layout->addWidget(bar);
  createCharts();
  layout->addWidget(stack_, 1);
  addViewChooser(*bar);
  addChartActions(*bar);
  setWidget(content);
}

// The five charts, one shown at a time.
void EnergyPlotDock::createCharts() {
  energy_ = new TimeSeriesChart({tr("kinetic, translational"), tr("kinetic, rotational"),
                                 tr("potential, gravity"), tr("potential, elastic"), tr("potential, fields"),
                                 tr("total"), tr("dissipated"), tr("total + dissipated")},
                                tr("energy [J]"));
  energy_->setShortNames({tr("KE transl."), tr("KE rot."), tr("PE grav."), tr("PE elastic"), tr("PE fields"),
                          tr("total"), tr("dissipated"), tr("total + diss.")});
  drift_ = new TimeSeriesChart({tr("|Δ(total + dissipated)| / energy scale")}, tr("relative drift"));
  drift_->setLogScale(true);
  ratio_ = new TimeSeriesChart(
      {tr("⟨E_rot⟩ / ⟨E_trans⟩, running time averages"), tr("equipartition over 3 + 3 degrees of freedom")},
      tr("ratio"));
  comparison_ =
      new TimeSeriesChart({tr("(start a time-step comparison from a lesson)")}, tr("|E(t) − E(0)| [J]"));
  comparison_->setLogScale(true);
  stack_ = new QStackedWidget;
  stack_->addWidget(energy_);
  stack_->addWidget(drift_);
  stack_->addWidget(ratio_);
  stack_->addWidget(comparison_);
  walls_ = new TimeSeriesChart({tr("(a scene with walls)")}, tr("impulse [N s]"));
  stack_->addWidget(walls_);
}

// Which chart is shown, each explained in its tooltip.
void EnergyPlotDock::addViewChooser(QToolBar& bar) {
  viewBox_ = new QComboBox;
  viewBox_->addItem(tr("energies"));
  viewBox_->addItem(tr("drift (log)"));
  viewBox_->addItem(tr("E_rot / E_trans"));
  viewBox_->addItem(tr("time steps compared"));
  viewBox_->addItem(tr("wall impulses"));
  viewBox_->setItemData(
      4,
      tr("The momentum each wall has taken from impacts (Mutze, Polyspherical grains, §1 iv: its slope is "
         "the mean "
         "force, the pressure times the area), and the momentum balance |ΔP + ΣJ| of the bodies "
         "and walls (0 without gravity or drags)"),
      Qt::ToolTipRole);
  viewBox_->setItemData(
      1,
      tr("Relative drift of total + dissipated energy (less the work of mouse drags), on a log "
         "scale, relative to the largest energy seen"),
      Qt::ToolTipRole);
  viewBox_->setItemData(
      2,
      tr("Ratio of the time averages of the rotational and translational kinetic energy "
         "(MercuryDPM rigid clumps, §4.1): 1 when all six degrees of freedom share the energy"),
      Qt::ToolTipRole);
  viewBox_->setItemData(3,
                        tr("The scene run at several time steps in the background: |E(t) − E(0)| of each "
                           "(Mutze, Polyspherical grains, §8); lessons start it"),
                        Qt::ToolTipRole);
  bar.addWidget(viewBox_);
  connect(viewBox_, &QComboBox::currentIndexChanged, stack_, &QStackedWidget::setCurrentIndex);
}

// What applies to every chart: the rolling window, pause, pinned axes, and the exports.
void EnergyPlotDock::addChartActions(QToolBar& bar) {
  auto* window = new QComboBox;
  window->addItem(tr("last 1 s"), 1.0);
  window->addItem(tr("last 5 s"), 5.0);
  window->addItem(tr("last 30 s"), 30.0);
  window->addItem(tr("whole run"), 0.0);
  window->setCurrentIndex(3);
  window->setToolTip(tr("Rolling window of simulated time, or the whole run"));
  bar.addWidget(window);
  connect(window, &QComboBox::currentIndexChanged, this, [this, window] {
    for (TimeSeriesChart* c : charts()) c->setRollingWindow(window->currentData().toDouble());
  });
  QAction* pause = bar.addAction(tr("Pause"));
  pause->setCheckable(true);
  pause->setToolTip(tr("Freeze the plot (recording goes on)"));
  connect(pause, &QAction::toggled, this, [this](bool on) {
    for (TimeSeriesChart* c : charts()) c->setPaused(on);
  });
  QAction* pin = bar.addAction(tr("Pin axes"));
  pin->setCheckable(true);
  pin->setToolTip(tr("Keep the current axis ranges. Drag a rectangle to zoom, right-click to follow again."));
  connect(pin, &QAction::toggled, this, [this](bool on) {
    for (TimeSeriesChart* c : charts()) c->setPinned(on);
  });
  bar.addSeparator();
  connect(bar.addAction(tr("CSV…")), &QAction::triggered, this, &EnergyPlotDock::exportCsv);
  connect(bar.addAction(tr("PNG…")), &QAction::triggered, this, &EnergyPlotDock::exportPng);
}

std::vector<TimeSeriesChart*> EnergyPlotDock::charts() const {
  return {energy_, drift_, ratio_, comparison_, walls_};
}

void EnergyPlotDock::setDriftShown(bool on) {
  showView(on ? View::Drift : View::Energies);
}

void EnergyPlotDock::showView(View view) {
  viewBox_->setCurrentIndex(static_cast<int>(view));  // the stack follows
}

EnergyPlotDock::View EnergyPlotDock::view() const {
  return static_cast<View>(stack_->currentIndex());
}

void EnergyPlotDock::startComparison(std::shared_ptr<const Scene> scene, const std::vector<double>& timeSteps,
                                     double duration) {
  QStringList names;
  for (double dt : timeSteps) names << tr("dt = %1 s").arg(dt, 0, 'g', 3);
  auto* chart = new TimeSeriesChart(names, tr("|E(t) − E(0)| [J]"));
  chart->setLogScale(true);
  chart->setTitle(tr("The scene at %1 time steps").arg(timeSteps.size()));
  replaceChart(comparison_, chart);
  comparisonRun_.start(std::move(scene), timeSteps, duration);
  showView(View::TimeSteps);
}

void EnergyPlotDock::replaceChart(TimeSeriesChart*& slot, TimeSeriesChart* chart) {
  const int index = stack_->indexOf(slot);
  const bool shown = stack_->currentIndex() == index;
  stack_->removeWidget(slot);
  slot->deleteLater();
  slot = chart;
  stack_->insertWidget(index, slot);
  if (shown) stack_->setCurrentIndex(index);
}

void EnergyPlotDock::stopComparison() {
  comparisonRun_.stop();
}

QImage EnergyPlotDock::plotImage(QSize size) const {
  return visibleChart()->renderImage(size);
}

TimeSeriesChart* EnergyPlotDock::visibleChart() const {
  return qobject_cast<TimeSeriesChart*>(stack_->currentWidget());
}

void EnergyPlotDock::clear() {
  energy_->clear();
  drift_->clear();
  ratio_->clear();
  walls_->clear();
  haveInitial_ = false;
  energyScale_ = 0.0;
}

void EnergyPlotDock::append(const sim::EnergySample& sample) {
  const EnergyReport& e = sample.energy;
  const double total = e.total();
  energy_->append(e.time, {e.keTranslational, e.keRotational, e.peGravity, e.peElastic, e.peFields, total,
                           e.dissipated, total + e.dissipated});
  // What is conserved: total + dissipated, less the work the user's drags and moving mesh walls did
  // (EnergyLedger::externalWork, EnergyLedger::wallWork) and the energy inlets brought in
  // (EnergyLedger::inserted).
  const double conserved = e.balance();
  if (!haveInitial_) {
    initialConserved_ = conserved;
    haveInitial_ = true;
  }
  energyScale_ = std::max(energyScale_, e.keTranslational + e.keRotational + std::abs(e.peGravity) +
                                            e.peElastic + std::abs(e.peFields) + std::abs(e.dissipated));
  const double drift = energyScale_ > 0.0 ? std::abs(conserved - initialConserved_) / energyScale_ : 0.0;
  drift_->append(e.time, {drift});
  appendWalls(sample);
  // MercuryDPM rigid clumps, §4.1: <E_rot> / <E_trans> of time averages, integrated on the simulation thread.
  if (sample.translationalKineticIntegral > 0.0) {
    ratio_->append(e.time, {sample.rotationalKineticIntegral / sample.translationalKineticIntegral, 1.0});
  }
}

void EnergyPlotDock::appendWalls(const sim::EnergySample& sample) {
  const std::size_t n = sample.wallImpulses.size();
  if (n == 0) return;
  if (walls_->pointCount() == 0) initialMomentum_ = sample.energy.momentum;
  if (static_cast<std::size_t>(walls_->seriesCount()) != n + 1) {
    // A chart for this scene's walls: |J| of each, and the balance.
    QStringList names;
    for (std::size_t w = 0; w < n; ++w) names << tr("|J| of wall %1").arg(w);
    names << tr("momentum balance |ΔP + ΣJ|");
    replaceChart(walls_, new TimeSeriesChart(names, tr("impulse [N s]")));
  }
  std::vector<double> values;
  Vec3 sum = Vec3::Zero();
  for (const Vec3& j : sample.wallImpulses) {
    values.push_back(j.norm());
    sum += j;
  }
  values.push_back((sample.energy.momentum - initialMomentum_ + sum).norm());
  walls_->append(sample.energy.time, values);
}

void EnergyPlotDock::refresh() {
  std::vector<ComparisonSample> samples;
  comparisonRun_.takeSamples(samples);
  for (const ComparisonSample& s : samples) comparison_->append(s.time, s.deviations);
  for (TimeSeriesChart* c : charts()) c->refresh();
}

std::size_t EnergyPlotDock::pointCount() const {
  return energy_->pointCount();
}

void EnergyPlotDock::exportCsv() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the energy history"),
                                                    QStringLiteral("energy.csv"), tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (!visibleChart()->exportCsv(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void EnergyPlotDock::exportPng() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save the plot as an image"),
                                                    QStringLiteral("energy.png"), tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  if (!visibleChart()->exportPng(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace clumplab::gui
