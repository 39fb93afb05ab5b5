#pragma once
// Helpers shared by the tests that drive the real main window (tst_gui, tst_wizard).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>

#include "MainWindow.hpp"

namespace clumplab::gui::test {

// Writes `text` to `dir`/`name` and returns the path (a failure ends the test program).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(text);
  return path;
}

// Waits until the window shows a frame satisfying `ready`.
template <class Ready>
bool waitForFrame(MainWindow& w, Ready ready, int timeoutMs = 10000) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    w.tick();
    if (const SimulationFrame* f = w.currentFrame(); f && ready(*f)) return true;
    QThread::msleep(2);
  }
  return false;
}

}  // namespace clumplab::gui::test
