#include "gui/window/DivergenceBanner.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace clumplab::gui {

using sim::DivergenceCause;

DivergenceBanner::DivergenceBanner(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  setStyleSheet(
      QStringLiteral("QWidget { background: #5a1d1d; color: #ffe9e9; } "
                     "QPushButton { background: #7a2b2b; border: 1px solid #c86; padding: 4px 10px; }"));
  // The explanation across the whole width, the ways on in a row under it (right-aligned): beside
  // three buttons the text was squeezed into a column a few words wide.
  auto* column = new QVBoxLayout(this);
  text_ = new QLabel;
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  column->addWidget(text_);
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  column->addLayout(row);
  undo_ = new QPushButton;
  undo_->setToolTip(tr("Go back to the last good state with that edit undone, and run on"));
  connect(undo_, &QPushButton::clicked, this, &DivergenceBanner::undoEditRequested);
  row->addWidget(undo_);
  safeStep_ = new QPushButton;
  safeStep_->setToolTip(tr("Go back to the last good state, set Δt to the safe step, run on"));
  connect(safeStep_, &QPushButton::clicked, this, &DivergenceBanner::safeStepRequested);
  row->addWidget(safeStep_);
  halve_ = new QPushButton(tr("Halve the time step and resume"));
  halve_->setToolTip(
      tr("Go back to the last good state (at most half a second of wall time ago), halve Δt, run on"));
  connect(halve_, &QPushButton::clicked, this, &DivergenceBanner::halveStepRequested);
  row->addWidget(halve_);
  auto* reset = new QPushButton(tr("Reset"));
  connect(reset, &QPushButton::clicked, this, &DivergenceBanner::resetRequested);
  row->addWidget(reset);
  hide();
}

void DivergenceBanner::showProblem(const Problem& p) {
  if (p.text.empty()) {
    hide();
    return;
  }
  text_->setText(tr("<b>The simulation stopped.</b> %1").arg(QString::fromStdString(p.text).toHtmlEscaped()));
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
