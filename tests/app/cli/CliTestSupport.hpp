#pragma once
// Helpers shared by the tests that run clumplab-cli as users' scripts do (tst_cli, tst_cli_shapes):
// a run's exit code and output, the example scenes' paths, files written into a temporary folder.
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include "TempFiles.hpp"
#include "TestPaths.hpp"

namespace clumplab::cli::test {

struct Result {
  int exitCode = -1;
  QByteArray out, err;
};

inline Result cli(const QStringList& args) {
  QProcess p;
  p.start(CLUMPLAB_CLI, args);
  if (!p.waitForFinished(120000)) qFatal("clumplab-cli did not finish");
  return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

inline QString scene(const char* name) {
  return QString(CLUMPLAB_SCENES_DIR) + "/" + name;
}

using clumplab::testfiles::writeFile;  // TempFiles.hpp

}  // namespace clumplab::cli::test
