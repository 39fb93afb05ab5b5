#include "gui/recording/MovieRecorder.hpp"

#include <cmath>

#include "gui/recording/PlotInset.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

MovieRecorder::MovieRecorder(RecordingHost& host, RecordingPlan plan, QObject* parent)
    : QObject(parent), host_(host), plan_(std::move(plan)) {}

MovieRecorder::~MovieRecorder() = default;

int MovieRecorder::framesWritten() const {
  return encoder_ ? encoder_->framesWritten() : 0;
}

qint64 MovieRecorder::bytesOnDisk() const {
  return encoder_ ? encoder_->bytesOnDisk() : 0;
}

QString MovieRecorder::start() {
  replay_ = host_.replay()->active() ? host_.replay() : nullptr;
  const sim::SimulationFrame* f = replay_ ? &replay_->frame() : host_.currentFrame();
  if (!f) return QStringLiteral("%1: there is no scene to record").arg(plan_.movie.path);
  if (!(plan_.duration > 0.0) || !(plan_.slowMotion > 0.0) || plan_.movie.framesPerSecond < 1) {
    return QStringLiteral("%1: the duration, slow-motion factor and frame rate must be positive")
        .arg(plan_.movie.path);
  }
  framesWanted_ = std::max(
      1, static_cast<int>(std::lround(plan_.duration * plan_.slowMotion * plan_.movie.framesPerSecond)));
  if (!plan_.frameSize.isEmpty() && (plan_.frameSize.width() < 16 || plan_.frameSize.height() < 16 ||
                                     plan_.frameSize.width() > 7680 || plan_.frameSize.height() > 4320)) {
    return QStringLiteral("%1: a frame size of %2×%3 is not possible (16×16 to 7680×4320)")
        .arg(plan_.movie.path)
        .arg(plan_.frameSize.width())
        .arg(plan_.frameSize.height());
  }
  if (replay_ && !plan_.realTime) startReplay();  // the frame count, and the first frame on show
  encoder_ = std::make_unique<MovieEncoder>(plan_.movie);
  statusWasVisible_ = host_.viewport()->statusVisible();
  host_.viewport()->setStatusVisible(plan_.statusOverlay);
  const QImage first = grabFrame();
  if (first.isNull()) {
    encoder_.reset();
    host_.viewport()->setStatusVisible(statusWasVisible_);
    return QStringLiteral("%1: the 3D view cannot be drawn (no OpenGL), so there is nothing to record")
        .arg(plan_.movie.path);
  }
  if (const QString error = encoder_->start(first.size()); !error.isEmpty()) {
    encoder_.reset();
    host_.viewport()->setStatusVisible(statusWasVisible_);
    return error;
  }
  active_ = true;
  clock_.start();
  if (!replay_ && !plan_.realTime) {
    // A simulation: paused first, and the movie starts at the time it paused at (the frame on show
    // may be long past while the run goes as fast as it can), its first frame that one.
    resumeAtEnd_ = host_.running();
    host_.setRunning(false);
    ticket_ = host_.simulation().commandsPosted();
    pausing_ = true;
    frames_ = host_.connectFrameShown(this, [this] { onFrame(); });
    return QString();
  }
  if (const QString error = addFrame(first, f->snapshot.time); !error.isEmpty()) {
    end(error);
    return error;
  }
  if (plan_.realTime) {
    grabTimer_ = new QTimer(this);
    grabTimer_->setTimerType(Qt::PreciseTimer);
    connect(grabTimer_, &QTimer::timeout, this, [this] {
      const sim::SimulationFrame* shown = host_.currentFrame();
      if (const QString error = addFrame(grabFrame(), shown ? shown->snapshot.time : lastFrameTime_);
          !error.isEmpty())
        end(error);
    });
    grabTimer_->start(std::max(1, static_cast<int>(std::lround(1000.0 / plan_.movie.framesPerSecond))));
    return QString();
  }
  requestNext();  // a replay
  return QString();
}

QString MovieRecorder::addFrame(const QImage& image, double time) {
  if (framesWritten() == 0) firstFrameTime_ = time;
  lastFrameTime_ = time;
  return encoder_->addFrame(image);
}

void MovieRecorder::cancel() {
  end(QStringLiteral("%1: recording cancelled").arg(plan_.movie.path));
}

void MovieRecorder::stop() {
  end(QString());
}

double MovieRecorder::elapsedSeconds() const {
  return clock_.isValid() ? static_cast<double>(clock_.nsecsElapsed()) * 1e-9 : 0.0;
}

void MovieRecorder::requestNext() {
  if (encoder_->framesWritten() >= framesWanted_) {
    end(QString());
    return;
  }
  if (replay_) {
    requestReplayFrame();
    return;
  }
  // Frame k shows the instant start + k / (fps x slow motion).
  const int k = encoder_->framesWritten();
  target_ = startTime_ + static_cast<double>(k) / (plan_.movie.framesPerSecond * plan_.slowMotion);
  // Held there too: a Run pressed before the frame is written stops at its time, not after it.
  host_.simulation().holdAt(target_);
  holding_ = true;
  host_.simulation().runUntil(target_);
  ticket_ = host_.simulation().commandsPosted();
  waiting_ = true;
}

void MovieRecorder::startReplay() {
  const ReplayDocument& d = *replay_->document();
  framesWanted_ =
      plan_.everyReplayFrame
          ? static_cast<int>(d.frameCount())
          : static_cast<int>(std::floor(
                (d.endTime() - d.startTime()) * plan_.movie.framesPerSecond * plan_.slowMotion + 1e-9)) +
                1;
  replay_->setPlaying(false);
  replay_->showFrame(replayFrameFor(0));
}

int MovieRecorder::replayFrameFor(int videoFrame) const {
  if (plan_.everyReplayFrame) return videoFrame;
  const ReplayDocument& d = *replay_->document();
  return static_cast<int>(
      d.nearestFrame(d.startTime() + videoFrame / (plan_.movie.framesPerSecond * plan_.slowMotion)));
}

void MovieRecorder::requestReplayFrame() {
  if (!replay_->active()) {
    end(QStringLiteral("%1: recording stopped: the replay was closed").arg(plan_.movie.path));
    return;
  }
  replay_->showFrame(replayFrameFor(encoder_->framesWritten()));
  // Grabbed from the event loop, so the window stays responsive and the status bar counts.
  QTimer::singleShot(0, this, [this] {
    if (!active_) return;
    if (const QString error = addFrame(grabFrame(), replay_->frame().snapshot.time); !error.isEmpty()) {
      end(error);
      return;
    }
    requestNext();
  });
}

void MovieRecorder::onFrame() {
  if (!encoder_ || !(waiting_ || pausing_)) return;
  const sim::SimulationFrame* f = host_.currentFrame();
  if (!f || f->commandsApplied < ticket_) return;
  if (pausing_) {  // paused: the movie starts here
    pausing_ = false;
    startTime_ = f->snapshot.time;
    sceneGeneration_ = f->sceneGeneration;
    if (const QString error = addFrame(grabFrame(), f->snapshot.time); !error.isEmpty()) {
      end(error);
      return;
    }
    requestNext();
    return;
  }
  if (f->diverged) {
    end(QStringLiteral("%1: recording stopped: %2")
            .arg(plan_.movie.path, QString::fromStdString(f->problem)));
    return;
  }
  const double halfStep = 0.5 * f->snapshot.timeStep;
  // A reset or a step back sent the run back in time: the frames would no longer follow each
  // other, so the movie ends with those it has (complete, as when stopped).
  const double lastShown = target_ - 1.0 / (plan_.movie.framesPerSecond * plan_.slowMotion);
  if (f->sceneGeneration != sceneGeneration_ ||
      (framesWritten() > 0 && f->snapshot.time + halfStep < lastShown)) {
    end(QStringLiteral(
            "%1: the recording ended after %2 frames: the simulation went back in time (a reset or "
            "a step back); the movie holds the frames before")
            .arg(plan_.movie.path)
            .arg(framesWritten()));
    return;
  }
  // The run towards this frame's time was interrupted (paused, a single step, or run on at the
  // chosen speed): it goes on, else the recording would wait for ever.
  const bool reached = f->snapshot.time + halfStep >= target_;
  if (f->stats.paused != reached) {
    host_.simulation().runUntil(target_);
    ticket_ = host_.simulation().commandsPosted();
    return;
  }
  if (!reached) return;
  waiting_ = false;
  if (const QString error = addFrame(grabFrame(), f->snapshot.time); !error.isEmpty()) {
    end(error);
    return;
  }
  requestNext();
}

QImage MovieRecorder::grabFrame() {
  Viewport& view = *host_.viewport();
  QImage frame = plan_.frameSize.isEmpty() ? view.grabFramebuffer()
                                           : view.renderImage(plan_.frameSize, plan_.statusOverlay);
  if (plan_.plot != RecordingPlan::Plot::None && !frame.isNull()) {
    const QSize plotSize = plotInsetFor(frame.size()).plotSize;
    drawPlotInset(frame, plan_.plot == RecordingPlan::Plot::Energy ? host_.energyPlotImage(plotSize)
                                                                   : host_.bodyOmegaPlotImage(plotSize));
  }
  return frame;
}

void MovieRecorder::end(const QString& error) {
  if (!active_) return;
  active_ = false;
  waiting_ = false;
  if (grabTimer_) grabTimer_->stop();
  QObject::disconnect(frames_);
  if (holding_) host_.simulation().holdAt(std::nullopt);
  holding_ = false;
  host_.viewport()->setStatusVisible(statusWasVisible_);
  QString result = error;
  if (encoder_) {
    const QString closing = encoder_->finish();
    if (result.isEmpty()) result = closing;
  }
  // A run the recording paused goes on as it was (it stayed paused after a recording from the app).
  if (resumeAtEnd_) host_.setRunning(true);
  resumeAtEnd_ = false;
  emit finished(result);
}

}  // namespace clumplab::gui
