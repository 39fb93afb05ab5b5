#include "gui/recording/TrajectoryControls.hpp"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStatusBar>

#include "gui/recording/TrajectoryDialog.hpp"
#include "gui/widgets/Shortcuts.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

TrajectoryControls::TrajectoryControls(RecordingHost& host, QMainWindow& window)
    : QObject(&window), host_(host), window_(window) {
  action_ = new QAction(tr("Record &trajectory…"), this);
  action_->setCheckable(true);
  action_->setShortcut(keys::recordTrajectory);
  action_->setToolTip(tr("Record the bodies' poses to a .cltraj file for replay (Ctrl+Shift+R)"));
  connect(action_, &QAction::toggled, this, &TrajectoryControls::toggled);
  status_ = new QLabel;
  status_->setStyleSheet(QStringLiteral("color: #2a7ab8;"));
  window_.statusBar()->addPermanentWidget(status_);
}

void TrajectoryControls::toggled(bool on) {
  if (!on) {
    stop();
    return;
  }
  const sim::SimulationFrame* f = host_.currentFrame();
  TrajectoryDialog dialog(f ? f->snapshot.bodies.size() : 0, f ? f->snapshot.timeStep : 0.0, &window_);
  if (dialog.exec() != QDialog::Accepted) {
    showChecked(false);
    return;
  }
  start(dialog.plan());
}

void TrajectoryControls::start(const sim::TrajectoryPlan& plan) {
  host_.simulation().startTrajectory(plan);
  ticket_ = host_.simulation().commandsPosted();
  recording_ = true;
  showChecked(true);
  status_->setText(tr("● trajectory starting…"));
}

void TrajectoryControls::stop() {
  host_.simulation().stopTrajectory();
  ticket_ = host_.simulation().commandsPosted();
  showChecked(false);
}

void TrajectoryControls::showChecked(bool on) {
  const QSignalBlocker block(action_);
  action_->setChecked(on);
  action_->setText(on ? tr("Stop recording the &trajectory") : tr("Record &trajectory…"));
}

void TrajectoryControls::show(const sim::SimulationFrame& f) {
  if (f.commandsApplied < ticket_) return;  // the thread has not seen the last start or stop yet
  const sim::TrajectoryStatus& t = f.trajectory;
  recording_ = t.recording;
  if (action_->isChecked() != t.recording) showChecked(t.recording);
  if (t.recording) {
    status_->setText(tr("● trajectory %1 s · %2 frames · %3")
                         .arg(t.seconds, 0, 'f', 2)
                         .arg(t.frames)
                         .arg(QLocale().formattedDataSize(static_cast<qint64>(t.bytes))));
    status_->setToolTip(QString::fromStdString(t.path));
  } else {
    status_->clear();
  }
  if (t.finishedCount == finishedSeen_) return;
  finishedSeen_ = t.finishedCount;
  const QString path = QString::fromStdString(t.path);
  const QString problem = QString::fromStdString(t.problem);
  if (problem.isEmpty()) {
    window_.statusBar()->showMessage(tr("Trajectory saved: %1 (%2 frames)").arg(path).arg(t.lastFrames),
                                     10000);
  } else {
    // Not modal: the run goes on (or waits paused) while the message is read.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Trajectory"), problem, QMessageBox::Ok, &window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("trajectoryProblem"));
    box->open();
  }
  emit finished(path, problem);
}

}  // namespace clumplab::gui
