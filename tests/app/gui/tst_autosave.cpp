// Autosave and restore after a crash: the app, killed with SIGKILL while running, leaves
// an autosave of the running world; the next start finds it (its lock is stale), restores it as an
// unsaved scene at the time it was saved, and removes it. A clean exit leaves nothing behind.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "gui/document/Autosave.hpp"

using clumplab::gui::Autosave;

namespace {
QString sceneFile(const char* name) {
  return QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/") + QLatin1String(name);
}

QProcessEnvironment environmentFor(const QString& folder, int seconds) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_DIR"), folder);
  env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_SECONDS"), QString::number(seconds));
  return env;
}

// The simulated time an autosaved scene holds, or -1 while there is none that parses.
double autosavedTime(const QString& folder) {
  const QStringList files = QDir(folder).entryList({QStringLiteral("session-*.json")}, QDir::Files);
  if (files.isEmpty()) return -1.0;
  QFile f(QDir(folder).filePath(files.front()));
  if (!f.open(QIODevice::ReadOnly)) return -1.0;
  const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
  return doc.isObject() ? doc.object().value(QStringLiteral("time")).toDouble(-1.0) : -1.0;
}
}  // namespace

class AutosaveTest : public QObject {
  Q_OBJECT
 private slots:
  void sessionFilesLiveAndDieWithTheSession() {
    QTemporaryDir dir;
    int saves = 0;
    {
      Autosave autosave(
          dir.path(),
          [&saves](const std::string& path, std::function<void(const std::string&)> done) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{}");
            ++saves;
            done("");
          },
          0);
      QVERIFY(autosave.active());
      QSignalSpy saved(&autosave, &Autosave::saved);
      autosave.setSource(QStringLiteral("relative/scene.json"));
      autosave.saveNow();
      QVERIFY(saved.wait(2000));
      QCOMPARE(saves, 1);
      QVERIFY(QFile::exists(autosave.path()));
      QVERIFY(QFile::exists(autosave.path() + QStringLiteral(".lock")));
      // A live session's autosave is nobody's orphan.
      QVERIFY(Autosave::orphans(dir.path()).empty());
    }
    // A clean exit removes everything.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList());
  }

  void aKilledAppIsRestoredAtItsAutosavedTime() {
    CLUMPLAB_SKIP_FORK_UNDER_TSAN();  // the autosave's thread runs under TSan in the case above
    QTemporaryDir dir;
    const QString scene = sceneFile("bulk-tbars.json");
    QProcess app;
    app.setProcessEnvironment(environmentFor(dir.path(), 1));
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--scene"), scene, QStringLiteral("--speed"), QStringLiteral("max")});
    QVERIFY(app.waitForStarted());
    // Wait for an autosave of a world that has run a while.
    QElapsedTimer clock;
    clock.start();
    double saved = -1.0;
    while (clock.elapsed() < clumplab::test::wallClockMs(60'000) &&
           (saved = autosavedTime(dir.path())) < 0.05)
      QTest::qWait(200);
    QVERIFY2(saved >= 0.05, qPrintable(QString("autosaved time %1").arg(saved)));
    app.kill();  // SIGKILL: no destructor runs, as in a crash
    QVERIFY(app.waitForFinished());
    saved = autosavedTime(dir.path());

    const auto orphans = Autosave::orphans(dir.path());
    QCOMPARE(orphans.size(), std::size_t(1));
    QCOMPARE(orphans.front().source, QFileInfo(scene).absoluteFilePath());

    // A scripted start leaves it alone unless told; told, it restores it and runs on from its time.
    QProcess restore;
    restore.setProcessEnvironment(environmentFor(dir.path(), 0));
    restore.start(QString(CLUMPLAB_APP),
                  {QStringLiteral("--restore-autosave"), QStringLiteral("yes"), QStringLiteral("--run-for"),
                   QStringLiteral("0.01"), QStringLiteral("--report"), QStringLiteral("--quit")});
    QVERIFY(restore.waitForFinished(120'000));
    QCOMPARE(restore.exitCode(), 0);
    const QJsonObject report = QJsonDocument::fromJson(restore.readAllStandardOutput()).object();
    qInfo("autosaved at t = %.6f s; restored and run to t = %.6f s: %s", saved,
          report.value(QStringLiteral("time")).toDouble(),
          qPrintable(report.value(QStringLiteral("title")).toString()));
    QCOMPARE(report.value(QStringLiteral("bodies")).toInt(), 100);
    QVERIFY(std::abs(report.value(QStringLiteral("time")).toDouble() - (saved + 0.01)) < 1e-6);
    QVERIFY(report.value(QStringLiteral("title"))
                .toString()
                .contains(QStringLiteral("bulk-tbars.json (restored")));
    // Restored, it is gone; and the restoring session, closed cleanly, left nothing either.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList());
  }

  void aScriptedStartLeavesOrphansAlone() {
    CLUMPLAB_SKIP_FORK_UNDER_TSAN();  // the autosave's thread runs under TSan in the case above
    QTemporaryDir dir;
    // An orphan made by hand: an autosave whose lock names a process that has ended.
    QProcess gone;
    gone.start(QStringLiteral("true"), {});
    QVERIFY(gone.waitForStarted());
    const qint64 deadPid = gone.processId();
    QVERIFY(gone.waitForFinished());
    const QString path = dir.filePath(QStringLiteral("session-1-1.json"));
    QFile::copy(sceneFile("tbar-dzhanibekov.json"), path);
    QFile lock(path + QStringLiteral(".lock"));
    QVERIFY(lock.open(QIODevice::WriteOnly));
    lock.write(QByteArray::number(deadPid) + "\nclumplab\n" + QSysInfo::machineHostName().toUtf8() + "\n");
    lock.close();
    QCOMPARE(Autosave::orphans(dir.path()).size(), std::size_t(1));
    QProcess run;
    run.setProcessEnvironment(environmentFor(dir.path(), 0));
    run.start(QString(CLUMPLAB_APP), {QStringLiteral("--run-for"), QStringLiteral("0.01"),
                                      QStringLiteral("--report"), QStringLiteral("--quit")});
    QVERIFY(run.waitForFinished(120'000));
    QCOMPARE(run.exitCode(), 0);
    QVERIFY(QFile::exists(path));  // still there for the next interactive start
    QProcess bad;
    bad.setProcessEnvironment(environmentFor(dir.path(), 0));
    bad.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--restore-autosave"), QStringLiteral("maybe"), QStringLiteral("--quit")});
    QVERIFY(bad.waitForFinished(60'000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("--restore-autosave: expected ask, yes or no, got 'maybe'"));
  }
};

QTEST_MAIN(AutosaveTest)
#include "tst_autosave.moc"
