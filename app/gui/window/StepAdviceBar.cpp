#include "gui/window/StepAdviceBar.hpp"

#include <QLabel>
#include <QPushButton>

namespace clumplab::gui {

StepAdviceBar::StepAdviceBar(QWidget* parent)
    : NoticeBar({"#5c4a12", "#fff4d6", "#7a6318", "#d8b450"}, parent) {
  useSafe_ = addButton(QString());
  connect(useSafe_, &QPushButton::clicked, this, [this] { emit useSafeStepRequested(safe_); });
  keep_ = addButton(QString());
  connect(keep_, &QPushButton::clicked, this, &StepAdviceBar::keepStepRequested);
}

void StepAdviceBar::showAdvice(bool advised, double timeStep, double safeTimeStep) {
  if (!advised) {
    hide();
    return;
  }
  safe_ = safeTimeStep;
  const QString dt = QString::number(timeStep, 'g', 3), safe = QString::number(safeTimeStep, 'g', 3);
  text()->setText(tr("<b>Paused: this edit needs a smaller time step.</b> The safe step is now %1 s, below "
                     "Δt = %2 s (the edit brought smaller pebbles or made contacts stiffer), so the run "
                     "would likely diverge.")
                      .arg(safe, dt));
  useSafe_->setText(tr("Use Δt = %1 s and run").arg(safe));
  keep_->setText(tr("Run at Δt = %1 s anyway").arg(dt));
  show();
}

}  // namespace clumplab::gui
