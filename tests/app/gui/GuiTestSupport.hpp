#pragma once
// Helpers shared by the tests that drive the real main window (tst_gui and its parts, tst_wizard,
// tst_replay, ...): test settings, scene files in a temporary folder, waiting for frames, opening a
// scene, a body's measured acceleration, probing a movie, dropping a file, reading message boxes.
#include <QAbstractButton>
#include <QApplication>
#include <QCoreApplication>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <cmath>
#include <cstdint>

#include "BuildSize.hpp"
#include "TempFiles.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

namespace clumplab::gui::test {

// Settings go to a test location under `application`, not the user's.
inline void useTestSettings(const QString& application) {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("ClumpLabTests"));
  QCoreApplication::setApplicationName(application);
}

// The first video stream of a movie as ffprobe reads it: "codec,width,height,pix_fmt,frames"
// ("" if ffprobe fails).
inline QString videoStreamInfo(const QString& ffprobe, const QString& movie) {
  QProcess probe;
  probe.start(ffprobe,
              {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-count_frames"),
               QStringLiteral("-select_streams"), QStringLiteral("v:0"), QStringLiteral("-show_entries"),
               QStringLiteral("stream=nb_read_frames,width,height,pix_fmt,codec_name"), QStringLiteral("-of"),
               QStringLiteral("csv=p=0"), movie});
  if (!probe.waitForFinished(30000)) return QString();
  return QString::fromLatin1(probe.readAllStandardOutput()).trimmed();
}

using clumplab::testfiles::writeFile;  // TempFiles.hpp

// Waits until the window shows a frame satisfying `ready`.
template <class Ready>
bool waitForFrame(MainWindow& w, Ready ready, int timeoutMs = clumplab::test::wallClockMs(10000)) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    w.tick();
    if (const sim::SimulationFrame* f = w.currentFrame(); f && ready(*f)) return true;
    QThread::msleep(2);
  }
  return false;
}

// Vertical acceleration of body 0 over `steps` single steps [m/s^2].
inline double measuredAcceleration(MainWindow& w, int steps) {
  const sim::SimulationFrame* f0 = w.currentFrame();
  if (f0 == nullptr || f0->snapshot.bodies.size() == 0) return NAN;
  const double t0 = f0->snapshot.time;
  const double v0 = f0->snapshot.bodies.velocity[0].z();
  const std::uint64_t target = f0->snapshot.steps + static_cast<std::uint64_t>(steps);
  w.simulation().singleStep(steps);
  if (!waitForFrame(w, [&](const sim::SimulationFrame& f) { return f.snapshot.steps >= target; })) return NAN;
  const sim::SimulationFrame* f1 = w.currentFrame();
  if (f1 == nullptr || f1->snapshot.bodies.size() == 0) return NAN;
  return (f1->snapshot.bodies.velocity[0].z() - v0) / (f1->snapshot.time - t0);
}

// Opens `json` (written to `dir` as `name`) and waits until the window shows its `bodies` bodies;
// returns "" or what went wrong.
inline QString openScene(MainWindow& w, const QTemporaryDir& dir, const QString& name, const char* json,
                         std::size_t bodies) {
  const QString error = w.openDocument(writeFile(dir, name, json), true);
  if (!error.isEmpty()) return error;
  if (!waitForFrame(w, [&](const sim::SimulationFrame& f) { return f.snapshot.bodies.size() == bodies; })) {
    return QStringLiteral("%1: no frame with %2 bodies").arg(name).arg(bodies);
  }
  return QString();
}

// Shows `w` with its 3D view `viewSize` pixels, running or paused, and opens the scene `json` in it
// (see openScene); "" or what went wrong.
inline QString showScene(MainWindow& w, bool running, QSize viewSize, const QTemporaryDir& dir,
                         const QString& name, const char* json, std::size_t bodies) {
  w.setRunning(running);
  w.viewport()->setFixedSize(viewSize);
  w.show();
  if (!QTest::qWaitForWindowExposed(&w)) return QStringLiteral("the window was not shown");
  return openScene(w, dir, name, json, bodies);
}

// Shows `w` paused and active (keyboard input reaches its fields) and opens the scene `json` in it
// (see openScene); "" or what went wrong.
inline QString showActiveScene(MainWindow& w, const QTemporaryDir& dir, const QString& name, const char* json,
                               std::size_t bodies) {
  w.setRunning(false);
  w.show();
  w.activateWindow();
  if (!QTest::qWaitForWindowActive(&w)) return QStringLiteral("the window did not become active");
  return openScene(w, dir, name, json, bodies);
}

// Drops `path` on the window as a file manager does.
inline void dropFile(MainWindow& w, const QString& path) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  const QPoint at = w.viewport()->mapTo(&w, w.viewport()->rect().center());
  QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &enter);
  QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &drop);
}

// Closes every message box that opens while it lives, from a timer (it runs inside the box's own
// event loop), keeping their texts: what a user reads, then OK, or the button whose text starts
// with `choice` where there is one.
class MessageBoxCloser {
 public:
  explicit MessageBoxCloser(QString choice = QString()) : choice_(std::move(choice)) {
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      for (QWidget* top : QApplication::topLevelWidgets()) {
        auto* box = qobject_cast<QMessageBox*>(top);
        if (box == nullptr || !box->isVisible()) continue;
        texts_ << box->text();
        for (QAbstractButton* b : box->buttons()) {
          if (!choice_.isEmpty() && b->text().startsWith(choice_)) {
            b->click();
            return;
          }
        }
        box->accept();
      }
    });
    timer_.start(50);
  }
  const QStringList& texts() const { return texts_; }

 private:
  QString choice_;
  QTimer timer_;
  QStringList texts_;
};

}  // namespace clumplab::gui::test
