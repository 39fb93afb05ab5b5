// MainWindow: bodies added by hand as undoable edits, and the ways on after a divergence that the
// banner offers (DivergenceBanner): undo the edit that caused it, the safe step, half the step.
#include <QStatusBar>
#include <cmath>

#include "gui/docks/ParameterEditCommand.hpp"
#include "gui/window/DivergenceBanner.hpp"
#include "gui/window/MainWindow.hpp"
#include "gui/window/SpawnCommand.hpp"

namespace clumplab::gui {

void MainWindow::spawnUndoable(std::vector<BodyInit> bodies, TemplatePtr newTemplate,
                               std::optional<Vec3> aimedAt, const QString& what) {
  undo_.push(new SpawnCommand(*loop_, std::move(bodies), std::move(newTemplate), aimedAt, what,
                              [this] { return ++spawnSerials_; }));
}

void MainWindow::recoverWithStep(double timeStep, const QString& what) {
  const sim::SimulationFrame* f = currentFrame();
  if (!f || !f->canRecover) return;
  EditableModel changed = parameters_;
  changed.timeStep = timeStep;
  loop_->recoverFromDivergence(changed);
  // On the undo stack like any edit, so undo and redo stay consistent with what runs.
  undo_.push(new ParameterEditCommand(parameters_, changed, what,
                                      [this](const EditableModel& p) { applyParameters(p); }));
  banner_->hide();
  showRunning(true);
  runTicket_ = loop_->commandsPosted();
  statusBar()->showMessage(tr("Resumed from the last good state with Δt = %1 s").arg(timeStep, 0, 'g', 4),
                           6000);
}

void MainWindow::recoverWithHalfStep() {
  const double halved = 0.5 * parameters_.timeStep;
  recoverWithStep(halved, tr("time step, halved to %1 s after a divergence").arg(halved, 0, 'g', 4));
}

void MainWindow::recoverWithSafeStep() {
  const sim::SimulationFrame* f = currentFrame();
  if (!f || !(f->recommendedTimeStep > 0.0) || !std::isfinite(f->recommendedTimeStep)) return;
  const double safe = f->recommendedTimeStep;
  recoverWithStep(safe, tr("time step, set to the safe %1 s after a divergence").arg(safe, 0, 'g', 4));
}

void MainWindow::recoverByUndoingTheEdit() {
  const sim::SimulationFrame* f = currentFrame();
  if (!f || !f->canRecover) return;
  const QString what = undo_.undoText();
  if (f->cause == sim::DivergenceCause::SpawnedBodies) {
    // Back to the state with the bodies in it (paused), then without them: the spawn on the undo
    // stack is undone when it is the last edit, else its bodies are deleted directly.
    loop_->recoverFromDivergence(parameters_, false);
    const auto* last = dynamic_cast<const SpawnCommand*>(undo_.command(undo_.index() - 1));
    if (last != nullptr && last->serial() == f->causeSpawn) {
      undo_.undo();
    } else {
      loop_->removeSpawn(f->causeSpawn);
    }
  } else if (f->cause == sim::DivergenceCause::ParameterEdit) {
    undo_.undo();  // the parameters as before it (applyParameters)
    loop_->recoverFromDivergence(parameters_, false);
  } else {
    return;
  }
  banner_->hide();
  setRunning(true);
  statusBar()->showMessage(tr("Undid “%1” and resumed from the last good state").arg(what), 6000);
}

}  // namespace clumplab::gui
