// The `clumplab` executable closed as a session ends it: a scripted run with --quit, and SIGTERM /
// SIGINT to a running app, each ending in bounded time with status 0 and its autosave removed (the
// soak's process cases; the soak itself: tst_soak).
#include <signal.h>

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdio>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestPaths.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::gui::test;

namespace {
constexpr int kAppExitMs = 30'000;  // the executable exits within this after --quit or SIGTERM
}  // namespace

class TestGuiShutdown : public QObject {
  Q_OBJECT

 private slots:
  // The app runs in its own process, with its settings, data and autosave in a folder of the test's
  // (appEnvironment).
  void initTestCase() { useTestSettings(QStringLiteral("tst_gui_shutdown")); }

  // The executable: a scripted run with --quit ends by itself with status 0, its autosave removed.
  void appQuitsAfterAScriptedRun() {
    CLUMPLAB_SKIP_FORK_UNDER_TSAN();
    QTemporaryDir home;
    QProcess app;
    app.setProcessEnvironment(appEnvironment(home.path()));
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer clock;
    clock.start();
    app.start(
        QString(CLUMPLAB_APP),
        {QStringLiteral("--scene"), QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/rotating-drum.json"),
         QStringLiteral("--run-for"), QStringLiteral("0.05"), QStringLiteral("--quit")});
    QVERIFY(app.waitForStarted());
    QVERIFY2(app.waitForFinished(kAppExitMs + 60'000), "clumplab --run-for 0.05 --quit did not end");
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(autosaveFiles(home.path()), QStringList());
    std::printf("soak: clumplab --run-for 0.05 --quit ended with 0 after %lld ms\n",
                static_cast<long long>(clock.elapsed()));
  }

  // SIGTERM (a logout, kill) and SIGINT (Ctrl+C) close a running app as Quit does: the simulation
  // thread joins, the autosave goes, status 0, within kAppExitMs.
  void appClosesOnTerminationSignals_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int{SIGTERM};
    QTest::newRow("SIGINT") << int{SIGINT};
  }
  void appClosesOnTerminationSignals() {
    CLUMPLAB_SKIP_FORK_UNDER_TSAN();
    QFETCH(int, signal);
    QTemporaryDir home;
    QProcess app;
    QProcessEnvironment env = appEnvironment(home.path());
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_SECONDS"), QStringLiteral("1"));
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.start(QString(CLUMPLAB_APP), {QStringLiteral("--scene"),
                                      QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/rotating-drum.json")});
    QVERIFY(app.waitForStarted());
    // Running: an autosave of the live world has been written.
    QElapsedTimer clock;
    clock.start();
    while (
        clock.elapsed() < 90'000 &&
        QDir(autosaveDir(home.path())).entryList({QStringLiteral("session-*.json")}, QDir::Files).isEmpty())
      QTest::qWait(100);
    QVERIFY2(!autosaveFiles(home.path()).isEmpty(), "the app did not autosave within 90 s");
    QTest::qWait(500);
    clock.restart();
    QCOMPARE(::kill(static_cast<pid_t>(app.processId()), signal), 0);
    QVERIFY2(app.waitForFinished(kAppExitMs), "the app did not close after the signal");
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(autosaveFiles(home.path()), QStringList());  // a clean exit
    std::printf("soak: clumplab closed %lld ms after signal %d, status 0\n",
                static_cast<long long>(clock.elapsed()), signal);
  }

 private:
  static QString autosaveDir(const QString& home) { return QDir(home).filePath(QStringLiteral("autosave")); }
  static QStringList autosaveFiles(const QString& home) {
    return QDir(autosaveDir(home)).entryList(QDir::Files | QDir::NoDotAndDotDot);
  }
  // The app's settings, data and autosave in `home`, not the user's.
  static QProcessEnvironment appEnvironment(const QString& home) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir(home).filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), QDir(home).filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), QDir(home).filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_DIR"), autosaveDir(home));
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_SECONDS"), QStringLiteral("60"));
    return env;
  }
};

QTEST_MAIN(TestGuiShutdown)
#include "tst_gui_shutdown.moc"
