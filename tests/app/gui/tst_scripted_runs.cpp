// Scripted runs of the app, run as a teacher's script runs them, each from a fresh
// profile and from one an earlier session left (as fast as possible, a tiny speed, a window larger
// than the screen): they leave the profile as it was, `--run-for T` stops at T whatever the speed,
// a movie moves from the scene's own start, and --help and --version need no display.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "TestPaths.hpp"

namespace {

QString sceneFile(const char* name) {
  return QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/") + QLatin1String(name);
}

// What an interactive session saved after running as fast as possible in a window wider than the
// screen (MainWindow::saveSettings's keys; the geometry is a real one of 3000x2000 at -50,-50).
const char* kUsedProfile = R"([General]
recentFiles=/nowhere/gone.json

[simulation]
asFastAsPossible=true
speed=0.01

[view]
coloring=2
mesh=true
pebbles=false
wireframe=true

[window]
geometry=@ByteArray(\x1\xd9\xd0\xcb\0\x3\0\0\xff\xff\xff\xce\xff\xff\xff\xce\0\0\v\x85\0\0\a\xa1\xff\xff\xff\xce\xff\xff\xff\xce\0\0\v\x85\0\0\a\xa1\0\0\0\0\0\0\0\0\v\xb8\xff\xff\xff\xce\xff\xff\xff\xce\0\0\v\x85\0\0\a\xa1)
)";

// A profile, the app's data and autosave in one temporary folder: a fresh one, or the used one.
class Profile {
 public:
  explicit Profile(bool used) {
    QDir(dir_.path()).mkpath(QStringLiteral("config/ClumpLab"));
    if (used) {
      QFile f(settingsFile());
      if (f.open(QIODevice::WriteOnly)) f.write(kUsedProfile);
    }
  }
  QString settingsFile() const { return dir_.filePath(QStringLiteral("config/ClumpLab/ClumpLab.conf")); }
  QByteArray settings() const {
    QFile f(settingsFile());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(none)");
  }
  QString path(const QString& name) const { return dir_.filePath(name); }
  QProcessEnvironment environment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir_.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), dir_.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_DIR"), dir_.filePath(QStringLiteral("autosave")));
    return env;
  }

 private:
  QTemporaryDir dir_;
};

struct Run {
  int exitCode = -1;
  QByteArray out, err;
};

Run runApp(const QProcessEnvironment& env, const QStringList& arguments, int timeoutMs = 180'000) {
  QProcess app;
  app.setProcessEnvironment(env);
  app.start(QString(CLUMPLAB_APP), arguments);
  Run r;
  if (!app.waitForFinished(timeoutMs)) {
    app.kill();
    app.waitForFinished();
    r.err = "timed out: " + arguments.join(QLatin1Char(' ')).toUtf8();
    return r;
  }
  r.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1;
  r.out = app.readAllStandardOutput();
  r.err = app.readAllStandardError();
  return r;
}

// The last JSON object the app printed on its own line.
QJsonObject lastJson(const QByteArray& out) {
  const QList<QByteArray> lines = out.trimmed().split('\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const QJsonDocument d = QJsonDocument::fromJson(*it);
    if (d.isObject()) return d.object();
  }
  return {};
}

void profileRows() {
  QTest::addColumn<bool>("used");
  QTest::newRow("fresh profile") << false;
  QTest::newRow("used profile") << true;
}

}  // namespace

class ScriptedRunsTest : public QObject {
  Q_OBJECT
 private slots:
  void scriptedRunsLeaveTheProfileAlone_data() { profileRows(); }
  void scriptedRunsLeaveTheProfileAlone() {
    QFETCH(bool, used);
    const Profile profile(used);
    const QByteArray before = profile.settings();
    const QString scene = sceneFile("tbar-dzhanibekov.json");
    const QList<QStringList> runs = {
        {QStringLiteral("--scene"), scene, QStringLiteral("--run-for"), QStringLiteral("0.05"),
         QStringLiteral("--screenshot"), profile.path(QStringLiteral("a.png")), QStringLiteral("--quit")},
        {QStringLiteral("--scene"), scene, QStringLiteral("--record"), profile.path(QStringLiteral("frames")),
         QStringLiteral("--duration"), QStringLiteral("0.1"), QStringLiteral("--fps"), QStringLiteral("20"),
         QStringLiteral("--size"), QStringLiteral("160x96"), QStringLiteral("--quit")},
        {QStringLiteral("--run-for"), QStringLiteral("0.02"), QStringLiteral("--report"),
         QStringLiteral("--quit")}};
    for (const QStringList& arguments : runs) {
      const Run r = runApp(profile.environment(), arguments);
      QVERIFY2(r.exitCode == 0, r.err.constData());
      QVERIFY2(profile.settings() == before,
               qPrintable(QStringLiteral("clumplab %1 changed the settings to:\n%2")
                              .arg(arguments.join(QLatin1Char(' ')), QString::fromUtf8(profile.settings()))));
    }
    QVERIFY(QFile::exists(profile.path(QStringLiteral("a.png"))));
  }

  void runForStopsAtItsTime_data() {
    QTest::addColumn<bool>("used");
    QTest::addColumn<QString>("speed");
    for (const char* speed : {"1", "0.1", "max"}) {
      QTest::newRow(qPrintable(QStringLiteral("fresh, speed %1").arg(QLatin1String(speed))))
          << false << QString::fromLatin1(speed);
      QTest::newRow(qPrintable(QStringLiteral("used, speed %1").arg(QLatin1String(speed))))
          << true << QString::fromLatin1(speed);
    }
  }
  void runForStopsAtItsTime() {
    // The window starts paused and the run is held at T: at speed 1 it used to end at 0.39-0.48 s
    // (it ran while the window came up, and the end was checked once per frame).
    QFETCH(bool, used);
    QFETCH(QString, speed);
    const Profile profile(used);
    const Run r = runApp(profile.environment(),
                         {QStringLiteral("--scene"), sceneFile("tbar-dzhanibekov.json"),
                          QStringLiteral("--run-for"), QStringLiteral("0.05"), QStringLiteral("--speed"),
                          speed, QStringLiteral("--report"), QStringLiteral("--quit")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const double time = lastJson(r.out).value(QStringLiteral("time")).toDouble(-1.0);
    qInfo("--run-for 0.05 at speed %s ended at t = %.17g s", qPrintable(speed), time);
    QVERIFY2(std::abs(time - 0.05) < 1e-9, r.out.constData());
    // The report counts every step of the run, from its start (it once counted from the first frame
    // that had stepped: "steps": 0 for a run shorter than the first paint). The scene's step: 1e-4 s.
    QCOMPARE(lastJson(r.out).value(QStringLiteral("steps")).toDouble(-1.0), 500.0);
  }

  void movieMovesFromTheScenesStart_data() { profileRows(); }
  void movieMovesFromTheScenesStart() {
    // The teacher's movie: after a profile saved "as fast as possible" it began at t = 1.1 s and
    // every frame after the first showed the same instant.
    QFETCH(bool, used);
    const Profile profile(used);
    const QString frames = profile.path(QStringLiteral("frames"));
    const int fps = 20;
    const Run r =
        runApp(profile.environment(),
               {QStringLiteral("--scene"), sceneFile("tbar-dzhanibekov.json"), QStringLiteral("--view"),
                QStringLiteral("pebbles,axes,L,omega"), QStringLiteral("--record"), frames,
                QStringLiteral("--duration"), QStringLiteral("0.5"), QStringLiteral("--fps"),
                QString::number(fps), QStringLiteral("--size"), QStringLiteral("320x180"),
                QStringLiteral("--plot"), QStringLiteral("--quit")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject movie = lastJson(r.out);
    const int count = movie.value(QStringLiteral("frames")).toInt();
    QCOMPARE(count, 10);
    QCOMPARE(movie.value(QStringLiteral("first_frame_time")).toDouble(-1.0), 0.0);
    QVERIFY2(std::abs(movie.value(QStringLiteral("last_frame_time")).toDouble() - (count - 1.0) / fps) < 1e-9,
             r.out.constData());
    const QStringList files = QDir(frames).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), count);
    QImage previous;
    for (const QString& file : files) {
      const QImage image(QDir(frames).filePath(file));
      QVERIFY2(!image.isNull(), qPrintable(file));
      if (!previous.isNull())
        QVERIFY2(image != previous, qPrintable(file + QStringLiteral(" repeats the frame before")));
      previous = image;
    }
  }

  void movieCarriesTheOmegaPlot() {
    // A free-rotation demo: the energy plot is flat, the body's omega is what moves.
    const Profile profile(false);
    const auto record = [&](const QString& folder, const QString& plotOption) {
      const Run r =
          runApp(profile.environment(),
                 {QStringLiteral("--scene"), sceneFile("tbar-dzhanibekov.json"), QStringLiteral("--record"),
                  profile.path(folder), QStringLiteral("--duration"), QStringLiteral("3"),
                  QStringLiteral("--fps"), QStringLiteral("2"), QStringLiteral("--size"),
                  QStringLiteral("480x270"), plotOption, QStringLiteral("--quit")});
      if (r.exitCode != 0) qWarning("%s", r.err.constData());
      const QStringList files =
          QDir(profile.path(folder)).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
      std::vector<QImage> images;
      for (const QString& f : files) images.emplace_back(QDir(profile.path(folder)).filePath(f));
      return images;
    };
    const std::vector<QImage> energy = record(QStringLiteral("energy"), QStringLiteral("--plot"));
    const std::vector<QImage> omega = record(QStringLiteral("omega"), QStringLiteral("--plot-omega"));
    QCOMPARE(energy.size(), std::size_t(6));
    QCOMPARE(omega.size(), std::size_t(6));
    // The inset's corner (bottom left, 3/8 by 2/7 of the frame).
    const QRect inset(0, 270 - 270 * 2 / 7, 480 * 3 / 8, 270 * 2 / 7);
    QVERIFY(omega.back().copy(inset) != energy.back().copy(inset));  // another plot
    QVERIFY(omega.back().copy(inset) != omega[1].copy(inset));       // and it grows
    // In a Dzhanibekov lesson, --plot draws the lesson's plot: omega in the body frame, not the flat
    // energies (a teacher's movie of the T-handle).
    const auto recordLesson = [&](const QString& folder, const QString& plotOption) {
      const Run r =
          runApp(profile.environment(),
                 {QStringLiteral("--lesson"), QStringLiteral("dzhanibekov-t-handle"),
                  QStringLiteral("--record"), profile.path(folder), QStringLiteral("--duration"),
                  QStringLiteral("1"), QStringLiteral("--fps"), QStringLiteral("2"), QStringLiteral("--size"),
                  QStringLiteral("480x270"), plotOption, QStringLiteral("--quit")});
      if (r.exitCode != 0) qWarning("%s", r.err.constData());
      const QStringList files =
          QDir(profile.path(folder)).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
      return files.isEmpty() ? QImage() : QImage(QDir(profile.path(folder)).filePath(files.back()));
    };
    const QImage lessonPlot = recordLesson(QStringLiteral("lesson-plot"), QStringLiteral("--plot"));
    const QImage lessonOmega = recordLesson(QStringLiteral("lesson-omega"), QStringLiteral("--plot-omega"));
    QVERIFY(!lessonPlot.isNull() && !lessonOmega.isNull());
    QCOMPARE(lessonPlot.copy(inset), lessonOmega.copy(inset));
  }

  void lessonFromTheCommandLine() {
    // A teacher records a lesson's movie headless: the lesson's scene from its start, its own speed
    // no matter (the movie keeps its clock).
    const Profile profile(true);
    const QString frames = profile.path(QStringLiteral("lesson"));
    const Run r = runApp(
        profile.environment(),
        {QStringLiteral("--lesson"), QStringLiteral("ten-grains-cavity"), QStringLiteral("--record"), frames,
         QStringLiteral("--duration"), QStringLiteral("0.2"), QStringLiteral("--fps"), QStringLiteral("10"),
         QStringLiteral("--size"), QStringLiteral("160x96"), QStringLiteral("--quit")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject movie = lastJson(r.out);
    QCOMPARE(movie.value(QStringLiteral("frames")).toInt(), 2);
    QCOMPARE(movie.value(QStringLiteral("first_frame_time")).toDouble(-1.0), 0.0);
    const Run byNumber =
        runApp(profile.environment(),
               {QStringLiteral("--lesson"), QStringLiteral("1"), QStringLiteral("--run-for"),
                QStringLiteral("0.01"), QStringLiteral("--report"), QStringLiteral("--quit")});
    QVERIFY2(byNumber.exitCode == 0, byNumber.err.constData());
    QVERIFY2(std::abs(lastJson(byNumber.out).value(QStringLiteral("time")).toDouble() - 0.01) < 1e-9,
             byNumber.out.constData());
    const Run unknown = runApp(profile.environment(), {QStringLiteral("--lesson"), QStringLiteral("nope"),
                                                       QStringLiteral("--quit")});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--lesson: no lesson 'nope' (there are: 1 ") &&
                 unknown.err.contains("ten-grains-cavity"),
             unknown.err.constData());
  }

  void windowScreenshotHoldsTheDocks() {
    // For documentation: the whole window, docks and plots, beside the 3D view's own screenshot.
    const Profile profile(false);
    const QString view = profile.path(QStringLiteral("view.png")),
                  window = profile.path(QStringLiteral("window.png"));
    const Run r = runApp(profile.environment(),
                         {QStringLiteral("--run-for"), QStringLiteral("0.02"), QStringLiteral("--size"),
                          QStringLiteral("320x180"), QStringLiteral("--screenshot"), view,
                          QStringLiteral("--screenshot-window"), window, QStringLiteral("--quit")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage viewImage(view), windowImage(window);
    QVERIFY(!viewImage.isNull() && !windowImage.isNull());
    QCOMPARE(viewImage.size(), QSize(320, 180));
    QVERIFY2(windowImage.width() > viewImage.width() + 300 && windowImage.height() > viewImage.height() + 200,
             qPrintable(QStringLiteral("%1x%2").arg(windowImage.width()).arg(windowImage.height())));
  }

  void helpAndVersionNeedNoDisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
      env.remove(QString::fromLatin1(name));
    const Run help = runApp(env, {QStringLiteral("--help")}, 60'000);
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains("--run-for") && help.out.contains("--record"), help.out.constData());
    const Run version = runApp(env, {QStringLiteral("--version")}, 60'000);
    QCOMPARE(version.exitCode, 0);
    QVERIFY2(QRegularExpression(R"(^ClumpLab \d+\.\d+\.\d+ \(revision [\w.+-]+\)\n$)")
                 .match(QString::fromUtf8(version.out))
                 .hasMatch(),
             version.out.constData());
    // Where the examples are: a build tree's clumplab lists its sources' scenes; CLUMPLAB_EXAMPLES
    // comes first when it names a folder, and is passed over when it does not.
    const Run examples = runApp(env, {QStringLiteral("--examples")}, 60'000);
    QCOMPARE(examples.exitCode, 0);
    QVERIFY2(examples.out.startsWith(QDir::cleanPath(CLUMPLAB_SCENES_DIR).toUtf8() + "\n") &&
                 examples.out.contains("default.json") && examples.out.contains("T-handles, wing nuts"),
             examples.out.constData());
    QTemporaryDir own;
    QFile scene(own.filePath(QStringLiteral("mine.json")));
    QVERIFY(scene.open(QIODevice::WriteOnly));
    scene.write(R"({"format": "clumplab-scene/1", "description": "My own pile."})");
    scene.close();
    QProcessEnvironment chosen = env;
    chosen.insert(QStringLiteral("CLUMPLAB_EXAMPLES"), own.path());
    const Run mine = runApp(chosen, {QStringLiteral("--examples")}, 60'000);
    QVERIFY2(mine.exitCode == 0 && mine.out.startsWith(QDir::cleanPath(own.path()).toUtf8()) &&
                 mine.out.contains("mine.json") && mine.out.contains("My own pile.") &&
                 !mine.out.contains("default.json"),
             mine.out.constData());
    chosen.insert(QStringLiteral("CLUMPLAB_EXAMPLES"), own.filePath(QStringLiteral("nothing-here")));
    const Run passedOver = runApp(chosen, {QStringLiteral("--examples")}, 60'000);
    QVERIFY2(passedOver.out.contains("default.json"), passedOver.out.constData());
    // A window without a display: one line that says so, not Qt's platform-plugin abort.
    const Run window = runApp(env, {QStringLiteral("--run-for"), QStringLiteral("1")}, 60'000);
    QCOMPARE(window.exitCode, 2);
    QVERIFY2(window.err.startsWith("clumplab: no display"), window.err.constData());
  }
};

QTEST_GUILESS_MAIN(ScriptedRunsTest)
#include "tst_scripted_runs.moc"
