#include "EnergyPlotDock.hpp"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <cmath>

#include "TimeSeriesChart.hpp"

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

  energy_ =
      new TimeSeriesChart({tr("kinetic, translational"), tr("kinetic, rotational"), tr("potential, gravity"),
                           tr("potential, elastic"), tr("total"), tr("dissipated"), tr("total + dissipated")},
                          tr("energy [J]"));
  drift_ = new TimeSeriesChart({tr("|Δ(total + dissipated)| / energy scale")}, tr("relative drift"));
  drift_->setLogScale(true);
  stack_ = new QStackedWidget;
  stack_->addWidget(energy_);
  stack_->addWidget(drift_);
  layout->addWidget(stack_, 1);

  auto* window = new QComboBox;
  window->addItem(tr("last 1 s"), 1.0);
  window->addItem(tr("last 5 s"), 5.0);
  window->addItem(tr("last 30 s"), 30.0);
  window->addItem(tr("whole run"), 0.0);
  window->setCurrentIndex(3);
  window->setToolTip(tr("Rolling window of simulated time, or the whole run"));
  bar->addWidget(window);
  connect(window, &QComboBox::currentIndexChanged, this, [this, window] {
    energy_->setRollingWindow(window->currentData().toDouble());
    drift_->setRollingWindow(window->currentData().toDouble());
  });
  driftAction_ = bar->addAction(tr("Drift (log)"));
  driftAction_->setCheckable(true);
  driftAction_->setToolTip(
      tr("Relative drift of total + dissipated energy (less the work of mouse drags), "
         "on a log scale, relative to the largest energy seen"));
  connect(driftAction_, &QAction::toggled, this, &EnergyPlotDock::setDriftShown);
  QAction* pause = bar->addAction(tr("Pause"));
  pause->setCheckable(true);
  pause->setToolTip(tr("Freeze the plot (recording goes on)"));
  connect(pause, &QAction::toggled, this, [this](bool on) {
    energy_->setPaused(on);
    drift_->setPaused(on);
  });
  QAction* pin = bar->addAction(tr("Pin axes"));
  pin->setCheckable(true);
  pin->setToolTip(tr("Keep the current axis ranges. Drag a rectangle to zoom, right-click to follow again."));
  connect(pin, &QAction::toggled, this, [this](bool on) {
    energy_->setPinned(on);
    drift_->setPinned(on);
  });
  bar->addSeparator();
  connect(bar->addAction(tr("CSV…")), &QAction::triggered, this, &EnergyPlotDock::exportCsv);
  connect(bar->addAction(tr("PNG…")), &QAction::triggered, this, &EnergyPlotDock::exportPng);
  setWidget(content);
}

void EnergyPlotDock::setDriftShown(bool on) {
  if (driftAction_->isChecked() != on) driftAction_->setChecked(on);
  stack_->setCurrentIndex(on ? 1 : 0);
}

QImage EnergyPlotDock::plotImage(QSize size) const {
  return visibleChart()->renderImage(size);
}

TimeSeriesChart* EnergyPlotDock::visibleChart() const {
  return stack_->currentIndex() == 1 ? drift_ : energy_;
}

void EnergyPlotDock::clear() {
  energy_->clear();
  drift_->clear();
  haveInitial_ = false;
  energyScale_ = 0.0;
}

void EnergyPlotDock::append(const EnergySample& sample) {
  const EnergyReport& e = sample.energy;
  const double total = e.total();
  energy_->append(e.time, {e.keTranslational, e.keRotational, e.peGravity, e.peElastic, total, e.dissipated,
                           total + e.dissipated});
  // What is conserved: total + dissipated, less the work the user's drags did (World::externalWork).
  const double conserved = total + e.dissipated - e.externalWork;
  if (!haveInitial_) {
    initialConserved_ = conserved;
    haveInitial_ = true;
  }
  energyScale_ = std::max(energyScale_, e.keTranslational + e.keRotational + std::abs(e.peGravity) +
                                            e.peElastic + std::abs(e.dissipated));
  const double drift = energyScale_ > 0.0 ? std::abs(conserved - initialConserved_) / energyScale_ : 0.0;
  drift_->append(e.time, {drift});
}

void EnergyPlotDock::refresh() {
  energy_->refresh();
  drift_->refresh();
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
