// The mesh corpus: every file of the formats below in Debian's assimp-testmodels
// (/usr/share/assimp/models, installed by .ci/install-deps) through `clumplab-cli fill`, as a user
// would run it. Each must end as a clump (exit 0, a template with pebbles, only warnings on stderr)
// or as one clear line that starts with the file's path and says its problem (exit 2): never a
// crash, a hang or Assimp's raw words. Skipped when the corpus is not installed.
//
// CLUMPLAB_CORPUS_TABLE=FILE writes the outcome table, the one docs/mesh-corpus.md holds.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "MeshCorpus.hpp"
#include "TestPaths.hpp"

namespace {

using namespace clumplab::test;

// A hang detector, not a speed target: regr01.obj takes 20-25 s alone on a 2-core machine, and
// two files run at a time beside other tests.
constexpr int kSecondsPerFile = 150;

struct Outcome {
  bool finished = false;
  bool crashed = false;
  int exitCode = -1;
  double seconds = 0.0;
  QByteArray out, err;
};

// `clumplab-cli fill FILE --count 30 --voxels 32` for every file, two at a time, each killed after
// kSecondsPerFile.
std::map<QString, Outcome> runAll(const QStringList& files) {
  struct Running {
    QString file;
    std::unique_ptr<QProcess> process;
    QElapsedTimer clock;
  };
  std::map<QString, Outcome> outcomes;
  std::vector<Running> running;
  int next = 0;
  const auto finish = [&](Running& r, bool finished) {
    Outcome& o = outcomes[r.file];
    o.finished = finished;
    o.seconds = static_cast<double>(r.clock.elapsed()) / 1000.0;
    if (!finished) {
      r.process->kill();
      r.process->waitForFinished(5000);
    }
    o.crashed = r.process->exitStatus() == QProcess::CrashExit;
    o.exitCode = r.process->exitCode();
    o.out = r.process->readAllStandardOutput();
    o.err = r.process->readAllStandardError();
  };
  while (next < files.size() || !running.empty()) {
    while (running.size() < 2 && next < files.size()) {
      Running r{files[next++], std::make_unique<QProcess>(), {}};
      r.process->start(CLUMPLAB_CLI, {"fill", kCorpus + "/" + r.file, "--count", "30", "--voxels", "32"});
      r.clock.start();
      running.push_back(std::move(r));
    }
    for (auto it = running.begin(); it != running.end();) {
      const bool done = it->process->waitForFinished(20) || it->process->state() == QProcess::NotRunning;
      if (done || it->clock.elapsed() > 1000 * kSecondsPerFile) {
        finish(*it, done);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
  }
  return outcomes;
}

QString number(double v, int digits = 4) {
  return QString::number(v, 'g', digits);
}

QString count(int n, const QString& one, const QString& many) {
  return QString::number(n) + " " + (n == 1 ? one : many);
}

// The warnings of a clump in short, from its mesh report.
QString warningsInShort(const QJsonObject& r) {
  const auto n = [&](const char* key) { return r[key].toInt(); };
  QStringList w;
  if (n("vertices_welded_nearby") > 0)
    w << count(n("vertices_welded_nearby"), "seam vertex", "seam vertices") + " welded";
  if (n("degenerate_dropped") > 0)
    w << count(n("degenerate_dropped"), "degenerate triangle", "degenerate triangles") + " dropped";
  if (n("duplicates_dropped") > 0)
    w << count(n("duplicates_dropped"), "duplicate triangle", "duplicate triangles") + " dropped";
  if (n("boundary_edges_as_given") > 0) {
    w << QString("open: %1 as given, %2 after welding")
             .arg(count(n("boundary_edges_as_given"), "boundary edge", "boundary edges"))
             .arg(n("boundary_edges"));
  }
  if (n("non_manifold_edges") > 0)
    w << count(n("non_manifold_edges"), "non-manifold edge", "non-manifold edges");
  if (n("triangles_reoriented") > 0)
    w << count(n("triangles_reoriented"), "triangle", "triangles") + " turned";
  if (n("shells_inverted") > 0) w << count(n("shells_inverted"), "shell", "shells") + " turned over";
  if (n("shells") > 1) w << count(n("shells"), "shell", "shells");
  if (r["overlapping_shells"].toBool()) w << "closed shells overlap";
  if (!r["watertight"].toBool()) {
    const double relative = r["volume_error"].toDouble() / r["volume"].toDouble();
    w << QString("winding-number solid, mass sampled on %1^3 voxels ±%2%")
             .arg(r["voxels"].toInt())
             .arg(number(100.0 * relative, 2));
  }
  return w.isEmpty() ? QString("none") : w.join("; ");
}

}  // namespace

class MeshCorpusTest : public QObject {
  Q_OBJECT
  std::map<QString, Outcome> outcomes_;
  QStringList table_;
  double seconds_ = 0.0;

 private slots:
  void initTestCase() {
    if (!QDir(kCorpus).exists())
      QSKIP("the mesh corpus /usr/share/assimp/models is not installed (Debian's assimp-testmodels)");
    const QStringList files = corpusFiles();
    QVERIFY2(files.size() > 40, qPrintable(QString("only %1 corpus files").arg(files.size())));
    QElapsedTimer clock;
    clock.start();
    outcomes_ = runAll(files);
    seconds_ = static_cast<double>(clock.elapsed()) / 1000.0;
    qInfo("%zu files in %.1f s", outcomes_.size(), seconds_);
  }

  void everyFileIsAClumpOrOneClearLine_data() {
    QTest::addColumn<QString>("file");
    for (const auto& [file, outcome] : outcomes_) QTest::newRow(qPrintable(file)) << file;
  }
  void everyFileIsAClumpOrOneClearLine() {
    QFETCH(QString, file);
    const Outcome& o = outcomes_.at(file);
    const QString path = kCorpus + "/" + file;
    const QString err = QString::fromUtf8(o.err).trimmed();
    QVERIFY2(o.finished, qPrintable(QString("no answer within %1 s").arg(kSecondsPerFile)));
    QVERIFY2(!o.crashed, qPrintable("crashed: " + err.left(300)));
    for (const QString& raw : kRawPhrases) QVERIFY2(!err.contains(raw), qPrintable("Assimp's words: " + err));
    const QString format =
        QFileInfo(file).suffix().isEmpty() ? file.section('/', 0, 0) : QFileInfo(file).suffix().toUpper();
    QString outcome, triangles = "—";
    if (o.exitCode == 0) {
      const QJsonObject t = QJsonDocument::fromJson(o.out).object();
      const int pebbles = static_cast<int>(t["pebbles"].toArray().size());
      QVERIFY2(pebbles > 0, qPrintable(QString::fromUtf8(o.out.left(300))));
      for (const QString& line : err.split('\n', Qt::SkipEmptyParts))
        QVERIFY2(line.startsWith(path + ": warning: "), qPrintable(line));
      const QJsonObject r = t["mesh_report"].toObject();
      triangles = QString::number(r["triangles_read"].toInt());
      outcome = QString("clump: %1 pebbles, volume %2 m³; %3")
                    .arg(pebbles)
                    .arg(number(r["volume"].toDouble()))
                    .arg(warningsInShort(r));
    } else {
      QCOMPARE(o.exitCode, 2);
      QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + err));
      QVERIFY2(err.startsWith(path + ": "), qPrintable(err));
      outcome = "refused: " + err.mid(path.size() + 2);
    }
    table_
        << QString("| %1 | %2 | %3 | %4 | %5 |").arg(file, format, triangles, outcome, number(o.seconds, 2));
  }

  // Files that crash Assimp itself (an assertion that aborts, a segmentation fault): the reader
  // runs in a process of its own, so the crash costs one line naming the file, exit 2, and nothing
  // of Assimp's words; the command itself ends normally.
  void aReaderThatCrashesCostsOneLine_data() {
    QTest::addColumn<QString>("file");
    for (const char* file :
         {"OpenGEX/camera.ogex", "OpenGEX/collada.ogex", "RAW/WithColor.raw", "RAW/WithTexture.raw"})
      QTest::newRow(file) << QString::fromLatin1(file);
  }
  void aReaderThatCrashesCostsOneLine() {
    QFETCH(QString, file);
    const QString path = kCorpus + "/" + file;
    if (!QFile::exists(path)) QSKIP("not in this version of the corpus");
    QProcess cli;
    cli.start(CLUMPLAB_CLI, {"mesh", path});
    QVERIFY(cli.waitForFinished(kSecondsPerFile * 1000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    const QString err = QString::fromUtf8(cli.readAllStandardError()).trimmed();
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + err));
    QVERIFY2(err.startsWith(path + ": cannot be read: the reader of"), qPrintable(err));
    QVERIFY2(err.contains("crashed on it") && err.contains("a process of its own"), qPrintable(err));
    for (const QString& raw : kRawPhrases) QVERIFY2(!err.contains(raw), qPrintable("Assimp's words: " + err));
    QVERIFY(cli.readAllStandardOutput().isEmpty());
  }

  void cleanupTestCase() {
    const QByteArray out = qgetenv("CLUMPLAB_CORPUS_TABLE");
    if (out.isEmpty() || outcomes_.empty()) return;
    QFile f(QString::fromLocal8Bit(out));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QStringList lines = {"| file | format | triangles | outcome | seconds |", "|---|---|---|---|---|"};
    lines << table_;
    lines << ""
          << QString("%1 files in %2 s (two at a time).").arg(outcomes_.size()).arg(number(seconds_, 3));
    f.write(lines.join('\n').toUtf8() + "\n");
  }
};

QTEST_GUILESS_MAIN(MeshCorpusTest)
#include "tst_mesh_corpus.moc"
