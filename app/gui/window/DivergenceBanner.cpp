#include "gui/window/DivergenceBanner.hpp"

#include <QLabel>
#include <QPushButton>

namespace clumplab::gui {

using sim::DivergenceCause;

DivergenceBanner::DivergenceBanner(QWidget* parent)
    : NoticeBar({"#5a1d1d", "#ffe9e9", "#7a2b2b", "#c86"}, parent) {
  undo_ = addButton(QString(), tr("Go back to the last good state with that edit undone, and run on"));
  connect(undo_, &QPushButton::clicked, this, &DivergenceBanner::undoEditRequested);
  safeStep_ = addButton(QString(), tr("Go back to the last good state, set Δt to the safe step, run on"));
  connect(safeStep_, &QPushButton::clicked, this, &DivergenceBanner::safeStepRequested);
  halve_ = addButton(
      tr("Halve the time step and resume"),
      tr("Go back to the last good state (at most half a second of wall time ago), halve Δt, run on"));
  connect(halve_, &QPushButton::clicked, this, &DivergenceBanner::halveStepRequested);
  connect(addButton(tr("Reset")), &QPushButton::clicked, this, &DivergenceBanner::resetRequested);
}

void DivergenceBanner::showProblem(const Problem& p) {
  if (p.text.empty()) {
    hide();
    return;
  }
  text()->setText(
      tr("<b>The simulation stopped.</b> %1").arg(QString::fromStdString(p.text).toHtmlEscaped()));
  const bool afterAnEdit =
      p.cause == DivergenceCause::SpawnedBodies || p.cause == DivergenceCause::ParameterEdit;
  undo_->setText(p.cause == DivergenceCause::SpawnedBodies ? tr("Undo the spawn and resume")
                                                           : tr("Undo “%1” and resume").arg(p.undoText));
  undo_->setVisible(p.canRecover && afterAnEdit);
  const bool aboveSafe = p.safeTimeStep > 0.0 && p.timeStep > p.safeTimeStep;
  safeStep_->setText(tr("Resume at the safe step (%1 s)").arg(p.safeTimeStep, 0, 'g', 3));
  safeStep_->setVisible(p.canRecover && aboveSafe);
  // Halving is the fix when nothing else explains it; after an edit it would only repeat it.
  halve_->setVisible(p.canRecover && !afterAnEdit);
  show();
}

}  // namespace clumplab::gui
