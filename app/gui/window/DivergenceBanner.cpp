#include "gui/window/DivergenceBanner.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace clumplab::gui {

DivergenceBanner::DivergenceBanner(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  setStyleSheet(
      QStringLiteral("QWidget { background: #5a1d1d; color: #ffe9e9; } "
                     "QPushButton { background: #7a2b2b; border: 1px solid #c86; padding: 4px 10px; }"));
  auto* row = new QHBoxLayout(this);
  text_ = new QLabel;
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(text_, 1);
  fix_ = new QPushButton(tr("Halve the time step and resume"));
  fix_->setToolTip(
      tr("Go back to the last good state (at most half a second of wall time ago), halve Δt, run on"));
  connect(fix_, &QPushButton::clicked, this, &DivergenceBanner::halveStepRequested);
  row->addWidget(fix_);
  auto* reset = new QPushButton(tr("Reset"));
  connect(reset, &QPushButton::clicked, this, &DivergenceBanner::resetRequested);
  row->addWidget(reset);
  hide();
}

void DivergenceBanner::showProblem(const std::string& problem, bool canRecover) {
  if (problem.empty()) {
    hide();
    return;
  }
  text_->setText(
      tr("<b>The simulation stopped.</b> %1").arg(QString::fromStdString(problem).toHtmlEscaped()));
  fix_->setVisible(canRecover);
  show();
}

}  // namespace clumplab::gui
