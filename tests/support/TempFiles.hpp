#pragma once
// Files a test writes for itself into a temporary folder (scenes, meshes, templates), shared by the
// command-line and the GUI tests.
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace clumplab::testfiles {

// Writes `text` to `dir`/`name` and returns the path (a failure ends the test program).
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(text);
  return path;
}

}  // namespace clumplab::testfiles
