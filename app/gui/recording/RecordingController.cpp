#include "gui/recording/RecordingController.hpp"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStatusBar>

#include "gui/recording/RecordDialog.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/view/ImageFiles.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

RecordingController::RecordingController(RecordingHost& host, QMainWindow& window, QAction* recordAction)
    : QObject(&window), host_(host), window_(window), recordAction_(recordAction) {
  status_ = new QLabel;
  status_->setStyleSheet(QStringLiteral("color: #d33;"));
  window_.statusBar()->addPermanentWidget(status_);
  connect(recordAction_, &QAction::toggled, this, &RecordingController::toggle);
}

void RecordingController::setChecked(bool on) {
  const QSignalBlocker block(recordAction_);
  recordAction_->setChecked(on);
}

void RecordingController::toggle(bool on) {
  if (!on) {
    stop();
    return;
  }
  if (recorder_) return;
  Viewport& view = *host_.viewport();
  RecordDialog dialog(view.size() * view.devicePixelRatio(), &window_);
  if (host_.replay()->active()) {
    const ReplayDocument& d = *host_.replay()->document();
    dialog.setReplay(static_cast<int>(d.frameCount()), d.endTime() - d.startTime());
  }
  if (dialog.exec() != QDialog::Accepted) {
    setChecked(false);
    return;
  }
  start(dialog.plan());
}

void RecordingController::stop() {
  if (recorder_) recorder_->stop();
}

bool RecordingController::start(RecordingPlan plan) {
  if (recorder_) return true;
  if (plan.movie.needsFfmpeg() && findFfmpeg(plan.movie.ffmpeg).isEmpty()) {
    const MovieSettings png = plan.movie.asPngSequence();
    const auto answer = QMessageBox::question(
        &window_, tr("Recording"),
        tr("%1 needs ffmpeg, which was not found (install it with: apt-get install ffmpeg).\n\n"
           "Record the frames as PNG images into %2 instead? ffmpeg can make them a movie later.")
            .arg(QFileInfo(plan.movie.path).fileName(), QDir::toNativeSeparators(png.path)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
      setChecked(false);
      return false;
    }
    plan.movie = png;
  }
  setChecked(true);
  recorder_ = new MovieRecorder(host_, plan, &window_);
  const QString path = plan.movie.path;
  connect(recorder_, &MovieRecorder::finished, this, [this, path](const QString& error) {
    const int frames = recorder_->framesWritten();
    const qint64 bytes = recorder_->bytesOnDisk();
    recorder_->deleteLater();
    recorder_ = nullptr;
    status_->clear();
    setChecked(false);
    if (!error.isEmpty()) {
      QMessageBox::warning(&window_, tr("Recording"), error);
    } else {
      window_.statusBar()->showMessage(
          tr("Recorded %1: %2 frames, %3 kB").arg(path).arg(frames).arg(bytes / 1024), 10000);
    }
  });
  if (const QString error = recorder_->start(); !error.isEmpty()) {
    recorder_->deleteLater();
    recorder_ = nullptr;
    setChecked(false);
    QMessageBox::warning(&window_, tr("Recording"), error);
    return false;
  }
  return true;
}

void RecordingController::updateStatus() {
  if (!recorder_ || !recorder_->recording()) return;
  const QString planned = recorder_->framesWanted() > 0 && !recorder_->realTime()
                              ? QStringLiteral(" / %1").arg(recorder_->framesWanted())
                              : QString();
  status_->setText(tr("● recording %1 s · %2%3 frames · %4 kB")
                       .arg(recorder_->elapsedSeconds(), 0, 'f', 1)
                       .arg(recorder_->framesWritten())
                       .arg(planned)
                       .arg(recorder_->bytesOnDisk() / 1024));
}

void RecordingController::screenshot() {
  const QString path = QFileDialog::getSaveFileName(&window_, tr("Save a screenshot"),
                                                    QStringLiteral("clumplab.png"), tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  if (!saveImageAtomically(host_.viewport()->grabFramebuffer(), path)) {
    QMessageBox::critical(&window_, tr("Screenshot"), tr("%1: cannot write the image").arg(path));
  }
}

}  // namespace clumplab::gui
