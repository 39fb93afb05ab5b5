#include "gui/document/ScriptedRun.hpp"

#include <QApplication>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/lessons/LessonDock.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/view/ImageFiles.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

ScriptedRun::ScriptedRun(ScriptHost& host, QWidget& window, const ScriptOptions& options)
    : QObject(&window), host_(host), window_(window), options_(options) {
  if (options_.size.isValid()) host_.viewport()->setFixedSize(options_.size);
  if (!options_.active()) return;  // an ordinary interactive session
  host_.connectFrameShown(this, [this] { onFrame(); });
  if (options_.report) {
    // How long input would wait: a precise timer due every kProbeMs, and how late it fires.
    probe_ = new QTimer(this);
    probe_->setTimerType(Qt::PreciseTimer);
    connect(probe_, &QTimer::timeout, this, [this] {
      const double elapsed = static_cast<double>(probeClock_.nsecsElapsed()) * 1e-6;
      probeClock_.start();
      if (started_ && !finishing_) lateness_.push_back(std::max(0.0, elapsed - kProbeMs));
    });
    probeClock_.start();
    probe_->start(kProbeMs);
  }
}

void ScriptedRun::onFrame() {
  const sim::SimulationFrame* f = host_.currentFrame();
  if (finishing_ || !f) return;
  if (!options_.record.isEmpty()) {
    if (!recorder_) startRecording();
    return;  // the recorder drives the run and ends it
  }
  // The run is counted from the frame it starts at: with --run-for, the first (this run starts
  // it, paused until then); else the first that has stepped. A count taken at a later frame missed
  // the steps before it (a heavy first paint: "steps": 0 for a 3 s run).
  if (!started_ && (options_.runFor >= 0.0 || f->snapshot.steps > 0)) {
    started_ = true;
    clock_.start();
    startSteps_ = f->snapshot.steps;
    startNs_ = clock_.nsecsElapsed();
    startPaints_ = host_.viewport()->paintCount();
  }
  // --run-for counts from the scene's own clock at its first frame (a saved scene goes on from its
  // time); main started the window paused, so the run starts here, at that time, and is held at its
  // end: it stops at --run-for exactly, however seldom frames come (a slow first paint, a busy machine).
  if (options_.runFor >= 0.0 && endTime_ < 0.0) {
    endTime_ = f->snapshot.time + options_.runFor;
    host_.simulation().holdAt(endTime_);
    if (!options_.startPaused) host_.setRunning(true);
  }
  if (options_.runFor >= 0.0 && !f->diverged && f->snapshot.time + 0.5 * f->snapshot.timeStep < endTime_)
    return;
  if (endTime_ >= 0.0) host_.simulation().holdAt(std::nullopt);  // Run goes on from here
  finishing_ = true;
  endSteps_ = f->snapshot.steps;
  endNs_ = started_ ? clock_.nsecsElapsed() : 0;
  paints_ = static_cast<int>(host_.viewport()->paintCount() - startPaints_);
  host_.setRunning(false);
  // Let the paused frame reach the view, then save it.
  QTimer::singleShot(100, this, &ScriptedRun::finish);
}

void ScriptedRun::startRecording() {
  // --plot in a lesson draws the lesson's plot: a free rotation's (the Dzhanibekov lessons') is omega
  // in the body frame, where the energies are flat lines.
  const LessonDock& lessons = *host_.lessonDock();
  const int lesson = lessons.currentLesson();
  const bool lessonPlotsOmega =
      lesson >= 0 && lessons.lessons()[static_cast<std::size_t>(lesson)].plot == QLatin1String("omega-body");
  const bool plotOmega = options_.plotOmega || (options_.plotInset && lessonPlotsOmega);
  // The omega plot is the Inspector's body's: the first body when none is chosen.
  if (plotOmega && host_.viewport()->selectedBody() < 0) host_.viewport()->setSelectedBody(0);
  RecordingPlan plan;
  plan.movie.path = options_.record;
  plan.movie.format = MovieSettings::formatFor(options_.record);
  plan.movie.framesPerSecond = options_.framesPerSecond;
  plan.duration = options_.duration;
  plan.slowMotion = options_.slowMotion;
  plan.frameSize = options_.size;  // exactly, even where the screen cannot hold a view that large
  plan.plot = plotOmega            ? RecordingPlan::Plot::BodyOmega
              : options_.plotInset ? RecordingPlan::Plot::Energy
                                   : RecordingPlan::Plot::None;
  plan.everyReplayFrame = options_.everyReplayFrame;
  recorder_ = new MovieRecorder(host_, plan, &window_);
  connect(recorder_, &MovieRecorder::finished, this, [this](const QString& error) {
    if (!error.isEmpty()) {
      std::fprintf(stderr, "clumplab: %s\n", qPrintable(error));
      exitCode_ = 1;
    } else {
      std::fprintf(stdout,
                   "{\"movie\": \"%s\", \"frames\": %d, \"width\": %d, \"height\": %d, \"bytes\": %lld, "
                   "\"first_frame_time\": %.17g, \"last_frame_time\": %.17g}\n",
                   qPrintable(options_.record), recorder_->framesWritten(), recorder_->frameSize().width(),
                   recorder_->frameSize().height(), static_cast<long long>(recorder_->bytesOnDisk()),
                   recorder_->firstFrameTime(), recorder_->lastFrameTime());
      std::fflush(stdout);
    }
    finishing_ = true;
    if (options_.quit) {
      window_.close();
      QApplication::exit(exitCode_);
    }
  });
  if (const QString error = recorder_->start(); !error.isEmpty()) {
    std::fprintf(stderr, "clumplab: %s\n", qPrintable(error));
    exitCode_ = 1;
    finishing_ = true;
    if (options_.quit) {
      window_.close();
      QApplication::exit(exitCode_);
    }
  }
}

void ScriptedRun::finish() {
  host_.tick();
  if (!options_.screenshot.isEmpty()) {
    const QImage image = host_.viewport()->grabFramebuffer();
    if (!saveImageAtomically(image, options_.screenshot)) {
      std::fprintf(stderr, "clumplab: %s: cannot write the screenshot\n", qPrintable(options_.screenshot));
      exitCode_ = 1;
    } else {
      std::fprintf(stdout, "%s\n", qPrintable(options_.screenshot));
    }
  }
  if (!options_.windowScreenshot.isEmpty()) {  // the window as a user sees it, for documentation
    if (!saveImageAtomically(window_.grab(), options_.windowScreenshot)) {
      std::fprintf(stderr, "clumplab: %s: cannot write the screenshot\n",
                   qPrintable(options_.windowScreenshot));
      exitCode_ = 1;
    } else {
      std::fprintf(stdout, "%s\n", qPrintable(options_.windowScreenshot));
    }
  }
  if (const sim::SimulationFrame* f = host_.currentFrame(); f && options_.report) printReport(*f);
  if (const sim::SimulationFrame* f = host_.currentFrame(); f && f->diverged) {
    std::fprintf(stderr, "clumplab: %s\n", f->problem.c_str());
    exitCode_ = 3;
  }
  if (options_.quit) {
    window_.close();
    QApplication::exit(exitCode_);
  }
}

void ScriptedRun::printReport(const sim::SimulationFrame& f) const {
  // Throughput over the scripted run with the window open and drawing (compare with
  // `clumplab-cli bench` at the same thread count).
  const double wall = static_cast<double>(endNs_ - startNs_) * 1e-9;
  const double steps = static_cast<double>(endSteps_ - startSteps_);
  const double pebbleSteps = wall > 0.0 ? steps * static_cast<double>(f.snapshot.pebbles) / wall : 0.0;
  std::vector<double> late = lateness_;
  std::sort(late.begin(), late.end());
  const auto quantile = [&late](double q) {
    return late.empty() ? 0.0
                        : late[std::min(late.size() - 1,
                                        static_cast<std::size_t>(q * static_cast<double>(late.size())))];
  };
  std::fprintf(stdout,
               "{\"steps\": %.0f, \"wall_seconds\": %.6g, \"bodies\": %zu, \"pebbles\": %zu, "
               "\"pebble_steps_per_second\": %.6g, \"frames\": %d, \"frames_per_second\": %.4g, "
               "\"paint_ms_last\": %.4g, \"event_latency_ms_p50\": %.3g, \"event_latency_ms_p95\": %.3g, "
               "\"event_latency_ms_max\": %.3g, \"time\": %.17g, \"title\": \"%s\"}\n",
               steps, wall, f.snapshot.bodies.size(), f.snapshot.pebbles, pebbleSteps, paints_,
               wall > 0.0 ? paints_ / wall : 0.0, host_.viewport()->lastPaintMilliseconds(), quantile(0.5),
               quantile(0.95), late.empty() ? 0.0 : late.back(), f.snapshot.time,
               qPrintable(window_.windowTitle().replace(QLatin1Char('"'), QLatin1Char('\''))));
  std::fflush(stdout);
}

}  // namespace clumplab::gui
