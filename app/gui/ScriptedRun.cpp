#include "ScriptedRun.hpp"

#include <QApplication>
#include <QTimer>
#include <cstdio>

#include "MainWindow.hpp"
#include "Viewport.hpp"

namespace clumplab::gui {

ScriptedRun::ScriptedRun(MainWindow& window, const ScriptOptions& options)
    : QObject(&window), window_(window), options_(options) {
  if (options_.size.isValid()) window_.viewport()->setFixedSize(options_.size);
  if (!options_.active()) return;  // an ordinary interactive session
  connect(&window_, &MainWindow::frameShown, this, &ScriptedRun::onFrame);
}

void ScriptedRun::onFrame() {
  const SimulationFrame* f = window_.currentFrame();
  if (finishing_ || !f) return;
  if (!started_ && f->snapshot.steps > 0) {
    started_ = true;
    clock_.start();
    startSteps_ = f->snapshot.steps;
    startNs_ = clock_.nsecsElapsed();
  } else if (started_) {
    ++paints_;
    paintMs_ += window_.viewport()->lastPaintMilliseconds();
  }
  if (options_.runFor >= 0.0 && f->snapshot.time + 0.5 * f->snapshot.timeStep < options_.runFor &&
      !f->diverged)
    return;
  finishing_ = true;
  endSteps_ = f->snapshot.steps;
  endNs_ = started_ ? clock_.nsecsElapsed() : 0;
  window_.setRunning(false);
  // Let the paused frame reach the view, then save it.
  QTimer::singleShot(100, this, &ScriptedRun::finish);
}

void ScriptedRun::finish() {
  window_.tick();
  if (!options_.screenshot.isEmpty()) {
    const QImage image = window_.viewport()->grabFramebuffer();
    if (image.isNull() || !image.save(options_.screenshot, "PNG")) {
      std::fprintf(stderr, "clumplab: %s: cannot write the screenshot\n", qPrintable(options_.screenshot));
      exitCode_ = 1;
    } else {
      std::fprintf(stdout, "%s\n", qPrintable(options_.screenshot));
    }
  }
  if (const SimulationFrame* f = window_.currentFrame(); f && options_.report) printReport(*f);
  if (const SimulationFrame* f = window_.currentFrame(); f && f->diverged) {
    std::fprintf(stderr, "clumplab: %s\n", f->divergenceMessage.c_str());
    exitCode_ = 3;
  }
  if (options_.quit) {
    window_.close();
    QApplication::exit(exitCode_);
  }
}

void ScriptedRun::printReport(const SimulationFrame& f) const {
  // Throughput over the scripted run with the window open and drawing (compare with
  // `clumplab-cli bench` at the same thread count).
  const double wall = static_cast<double>(endNs_ - startNs_) * 1e-9;
  const double steps = static_cast<double>(endSteps_ - startSteps_);
  const double pebbleSteps = wall > 0.0 ? steps * static_cast<double>(f.snapshot.pebbles) / wall : 0.0;
  std::fprintf(stdout,
               "{\"steps\": %.0f, \"wall_seconds\": %.6g, \"bodies\": %zu, \"pebbles\": %zu, "
               "\"pebble_steps_per_second\": %.6g, \"frames\": %d, \"frames_per_second\": %.4g, "
               "\"paint_ms_mean\": %.4g}\n",
               steps, wall, f.snapshot.bodies.size(), f.snapshot.pebbles, pebbleSteps, paints_,
               wall > 0.0 ? paints_ / wall : 0.0, paints_ > 0 ? paintMs_ / paints_ : 0.0);
  std::fflush(stdout);
}

}  // namespace clumplab::gui
