// Safe saves: an output file is published whole or not at all. A writer killed before it
// commits leaves the previous file as it was (and its partial file beside it).
#include <sys/wait.h>
#include <unistd.h>

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/Errors.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/io/OutputCsv.hpp"

using namespace clumplab;

namespace {
std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
std::size_t partialFiles(const QString& folder) {
  return QDir(folder).entryList({QStringLiteral("*.partial-*")}, QDir::Files).size();
}
}  // namespace

class AtomicOutputTest : public QObject {
  Q_OBJECT
 private slots:
  void publishedWholeOnCommit() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("out.csv")).toStdString();
    writeFileAtomically(path, "old\n");
    {
      AtomicOutputFile file(path);
      file.stream() << "new, line 1\n";
      QCOMPARE(contents(path), std::string("old\n"));  // readers still see the old file
      QCOMPARE(partialFiles(dir.path()), std::size_t(1));
      file.stream() << "new, line 2\n";
      file.commit();
      file.commit();  // later calls do nothing
    }
    QCOMPARE(contents(path), std::string("new, line 1\nnew, line 2\n"));
    QCOMPARE(partialFiles(dir.path()), std::size_t(0));
  }

  void aKilledWriterLeavesTheOldFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("energy.csv")).toStdString();
    writeFileAtomically(path, "complete earlier run\n");
    const pid_t child = ::fork();
    if (child == 0) {
      auto* writer = new EnergyCsvWriter(path);  // never destroyed: the process dies mid-run
      EnergyReport e;
      for (int k = 0; k < 1000; ++k) writer->write(e);
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(contents(path), std::string("complete earlier run\n"));
    QCOMPARE(partialFiles(dir.path()), std::size_t(1));
  }

  void writersCommitWhenDestroyed() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("states.csv")).toStdString();
    { StateCsvWriter states(path); }
    QCOMPARE(contents(path), std::string(StateCsvWriter::header()) + "\n");
    QCOMPARE(partialFiles(dir.path()), std::size_t(0));
  }

  void errorsNameTheFile() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath(QStringLiteral("no/such/folder/out.csv")).toStdString();
    try {
      AtomicOutputFile file(missing);
      QFAIL("a file in a missing folder was opened");
    } catch (const InputError& e) {
      QVERIFY2(
          QString(e.what()).contains(QString::fromStdString(missing) + ": cannot write the file: the folder"),
          e.what());
    }
    try {
      AtomicOutputFile file(dir.path().toStdString());
      QFAIL("a folder was opened as a file");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("is a folder"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(AtomicOutputTest)
#include "tst_atomic_output.moc"
