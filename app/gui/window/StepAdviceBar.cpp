#include "gui/window/StepAdviceBar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace clumplab::gui {

StepAdviceBar::StepAdviceBar(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  setStyleSheet(
      QStringLiteral("QWidget { background: #5c4a12; color: #fff4d6; } "
                     "QPushButton { background: #7a6318; border: 1px solid #d8b450; padding: 4px 10px; }"));
  auto* column = new QVBoxLayout(this);
  text_ = new QLabel;
  text_->setWordWrap(true);
  column->addWidget(text_);
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  useSafe_ = new QPushButton;
  connect(useSafe_, &QPushButton::clicked, this, [this] { emit useSafeStepRequested(safe_); });
  row->addWidget(useSafe_);
  keep_ = new QPushButton;
  connect(keep_, &QPushButton::clicked, this, &StepAdviceBar::keepStepRequested);
  row->addWidget(keep_);
  column->addLayout(row);
  hide();
}

void StepAdviceBar::showAdvice(bool advised, double timeStep, double safeTimeStep) {
  if (!advised) {
    hide();
    return;
  }
  safe_ = safeTimeStep;
  const QString dt = QString::number(timeStep, 'g', 3), safe = QString::number(safeTimeStep, 'g', 3);
  text_->setText(tr("<b>Paused: this edit needs a smaller time step.</b> The safe step is now %1 s, below "
                    "Δt = %2 s (a smaller pebble or a stiffer contact joined), so the run would likely "
                    "diverge.")
                     .arg(safe, dt));
  useSafe_->setText(tr("Use Δt = %1 s and run").arg(safe));
  keep_->setText(tr("Run at Δt = %1 s anyway").arg(dt));
  show();
}

}  // namespace clumplab::gui
