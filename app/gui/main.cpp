// clumplab: the desktop app. `clumplab [FILE]` opens a scene (JSON) or a mesh (STL, OBJ, PLY, ...);
// with no file, the default scene. A trajectory (.cltraj, or --replay FILE) opens in replay mode,
// over the scene (or the default one). See ScriptedRun.hpp for the scripted screenshot options.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSurfaceFormat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

#include "core/base/ResourceLimits.hpp"
#include "core/base/Version.hpp"
#include "gui/document/DocumentLoader.hpp"
#include "gui/document/ExampleScenes.hpp"
#include "gui/document/PrivateSettings.hpp"
#include "gui/document/ScriptedRun.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"
#include "gui/window/QuitOnSignals.hpp"
#include "resources/Resources.hpp"

using clumplab::gui::MainWindow;
using clumplab::gui::ScriptedRun;
using clumplab::gui::ScriptOptions;

namespace {
void fail(const QString& message) {
  std::fprintf(stderr, "clumplab: %s\n", qPrintable(message));
  std::exit(2);
}

// --help, --version and --examples print and exit: they need no display, so they get no QApplication (which
// would fail without one).
bool printsAndExits(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version" || a == "--examples")
      return true;
  }
  return false;
}

// True when Qt's default platform (X11 or Wayland) has nowhere to draw: no DISPLAY, no
// WAYLAND_DISPLAY and no QT_QPA_PLATFORM chosen (offscreen, vnc, ...).
bool noDisplay() {
  return qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
         qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}
}  // namespace

int main(int argc, char** argv) {
  if (!printsAndExits(argc, argv) && noDisplay()) {
    std::fprintf(stderr,
                 "clumplab: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): run "
                 "it on a desktop, or scripted runs under xvfb-run (see clumplab --help)\n");
    return 2;
  }
  const std::unique_ptr<QCoreApplication> application = printsAndExits(argc, argv)
                                                            ? std::make_unique<QCoreApplication>(argc, argv)
                                                            : std::make_unique<QApplication>(argc, argv);
  QCoreApplication& app = *application;
  QApplication::setOrganizationName(QStringLiteral("ClumpLab"));
  QApplication::setApplicationName(QStringLiteral("ClumpLab"));
  // --version prints "ClumpLab 0.1.0 (revision 2ae26b6f1c3d)"; Help > About shows the same.
  QApplication::setApplicationVersion(
      QStringLiteral("%1 (revision %2)").arg(clumplab::clumplabVersion(), clumplab::clumplabRevision()));
  if (auto* gui = qobject_cast<QApplication*>(&app)) {
    // The window's icon, and the desktop entry (clumplab.desktop) a Wayland compositor matches it to.
    clumplab::initResources();
    gui->setWindowIcon(QIcon(QStringLiteral(":/icons/clumplab.png")));
    QGuiApplication::setDesktopFileName(QStringLiteral("clumplab"));
  }
  // SIGTERM / SIGINT / SIGHUP close the windows as Quit does (the simulation thread joins, status 0).
  const clumplab::gui::QuitOnSignals quitOnSignals;

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("ClumpLab: a sandbox for rigid clumps"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("FILE"),
      QStringLiteral("a scene (.json), a mesh (.stl, .obj, .ply) or a trajectory (.cltraj)"));
  const QCommandLineOption sceneOption(QStringLiteral("scene"), QStringLiteral("open FILE"),
                                       QStringLiteral("FILE"));
  const QCommandLineOption runFor(QStringLiteral("run-for"),
                                  QStringLiteral("run for SECONDS of simulated time"),
                                  QStringLiteral("SECONDS"));
  const QCommandLineOption shot(QStringLiteral("screenshot"),
                                QStringLiteral("save the 3D view to PNG when done"), QStringLiteral("PNG"));
  const QCommandLineOption windowShot(
      QStringLiteral("screenshot-window"),
      QStringLiteral("save the whole window (docks and plots) to PNG when done"), QStringLiteral("PNG"));
  parser.addOption(windowShot);
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("size of the 3D view and of recorded frames, e.g. 1280x720"),
                                QStringLiteral("WxH"));
  const QCommandLineOption quit(QStringLiteral("quit"), QStringLiteral("quit when the scripted run is done"));
  const QCommandLineOption speed(QStringLiteral("speed"),
                                 QStringLiteral("simulated seconds per wall second (0.001 to 1, or 'max')"),
                                 QStringLiteral("X"));
  const QCommandLineOption paused(QStringLiteral("paused"), QStringLiteral("start paused"));
  const QCommandLineOption view(
      QStringLiteral("view"),
      QStringLiteral("what to draw: any of pebbles,wireframe,mesh,axes,velocity,omega,L,"
                     "trails,contacts,stereo (comma-separated)"),
      QStringLiteral("LIST"));
  const QCommandLineOption coloring(QStringLiteral("coloring"),
                                    QStringLiteral("colour pebbles per body, by speed or by |omega|"),
                                    QStringLiteral("body|speed|omega"));
  const QCommandLineOption record(
      QStringLiteral("record"),
      QStringLiteral("record a movie (.mp4, .webm, .gif, or a folder for PNG frames), a fixed "
                     "simulated time per frame"),
      QStringLiteral("FILE"));
  const QCommandLineOption duration(QStringLiteral("duration"),
                                    QStringLiteral("simulated seconds to record (5)"),
                                    QStringLiteral("SECONDS"));
  const QCommandLineOption fps(QStringLiteral("fps"), QStringLiteral("frames per second of the movie (30)"),
                               QStringLiteral("N"));
  const QCommandLineOption slowMotion(QStringLiteral("slow-motion"),
                                      QStringLiteral("video seconds per simulated second (1)"),
                                      QStringLiteral("X"));
  const QCommandLineOption plot(
      QStringLiteral("plot"),
      QStringLiteral("draw the energy plot into the movie's frames (bottom left); in a lesson, the lesson's "
                     "plot (omega in the body frame in the Dzhanibekov lessons)"));
  const QCommandLineOption plotOmega(
      QStringLiteral("plot-omega"),
      QStringLiteral(
          "draw the selected body's body-frame omega (body 0 if none) into the movie's frames instead"));
  parser.addOption(plotOmega);
  const QCommandLineOption replay(
      QStringLiteral("replay"),
      QStringLiteral("replay a trajectory (.cltraj); with --record, re-render it: one video frame per "
                     "trajectory frame (with --slow-motion: per 1/(fps x X) of recorded time)"),
      QStringLiteral("FILE"));
  const QCommandLineOption historyMb(QStringLiteral("history-mb"),
                                     QStringLiteral("memory for stepping back, in MB (256)"),
                                     QStringLiteral("MB"));
  const QCommandLineOption report(
      QStringLiteral("report"),
      QStringLiteral("print a JSON summary of the scripted run (throughput, frame rate)"));
  const QCommandLineOption spheres(QStringLiteral("spheres"),
                                   QStringLiteral("every clump as its bounding or volume-equivalent sphere"),
                                   QStringLiteral("bounding|volume"));
  const QCommandLineOption motion(
      QStringLiteral("plane"),
      QStringLiteral("2D in a coordinate plane through the middle of the bodies, or 3D, whatever the scene "
                     "file says"),
      QStringLiteral("xy|xz|yz|3d"));
  const QCommandLineOption lesson(
      QStringLiteral("lesson"),
      QStringLiteral(
          "open a lesson: its number in the Lessons menu, its name (dzhanibekov-wingnut) or title"),
      QStringLiteral("N|NAME"));
  parser.addOption(lesson);
  parser.addOptions({sceneOption, runFor, shot, size, quit, speed, paused, view, coloring, record, duration,
                     fps, slowMotion, plot, report, replay, historyMb, spheres, motion});
  // Resource limits (core/base/ResourceLimits.hpp), also read from CLUMPLAB_MAX_* at start-up.
  const std::vector<std::pair<QCommandLineOption, const char*>> limitOptions = {
      {{QStringLiteral("max-pebbles"), QStringLiteral("refuse scenes of more than N pebbles"),
        QStringLiteral("N")},
       "--max-pebbles"},
      {{QStringLiteral("max-fill-points"), QStringLiteral("largest grid a pebble fill tests"),
        QStringLiteral("N")},
       "--max-fill-points"},
      {{QStringLiteral("max-triangles"), QStringLiteral("refuse meshes of more triangles"),
        QStringLiteral("N")},
       "--max-triangles"},
      {{QStringLiteral("max-memory-mb"), QStringLiteral("refuse scenes estimated to need more"),
        QStringLiteral("MB")},
       "--max-memory-mb"}};
  for (const auto& [option, name] : limitOptions) parser.addOption(option);
  const QCommandLineOption restoreAutosave(
      QStringLiteral("restore-autosave"),
      QStringLiteral("a scene autosaved before a crash: ask (the default), yes or no (with --quit: no)"),
      QStringLiteral("CHOICE"));
  parser.addOption(restoreAutosave);
  const QCommandLineOption examples(QStringLiteral("examples"),
                                    QStringLiteral("print where the example scenes are, and list them"));
  parser.addOption(examples);
  parser.process(app);  // --help and --version print and exit here
  if (parser.isSet(examples)) {
    std::fputs(qPrintable(clumplab::gui::exampleScenesListing()), stdout);
    return clumplab::gui::exampleScenesFolder().isEmpty() ? 1 : 0;
  }
  // Probes OpenGL with an offscreen surface: after the parser, which needs no display.
  QSurfaceFormat::setDefaultFormat(clumplab::gui::viewportSurfaceFormat());
  try {
    std::vector<std::string> limits;
    for (const auto& [option, name] : limitOptions) {
      if (parser.isSet(option)) limits.insert(limits.end(), {name, parser.value(option).toStdString()});
    }
    (void)clumplab::resourceLimits();  // a bad CLUMPLAB_MAX_* variable is reported here
    clumplab::takeLimitOptions(limits);
  } catch (const std::exception& e) {
    fail(QString::fromStdString(e.what()));
  }

  ScriptOptions script;
  if (parser.isSet(runFor)) {
    bool ok = false;
    script.runFor = parser.value(runFor).toDouble(&ok);
    if (!ok || script.runFor < 0.0)
      fail(QStringLiteral("--run-for: expected a time in seconds, got '%1'").arg(parser.value(runFor)));
  }
  script.screenshot = parser.value(shot);
  script.windowScreenshot = parser.value(windowShot);
  script.quit = parser.isSet(quit);
  script.report = parser.isSet(report);
  script.record = parser.value(record);
  script.plotInset = parser.isSet(plot);
  script.plotOmega = parser.isSet(plotOmega);
  auto positive = [&](const QCommandLineOption& option, double fallback) {
    if (!parser.isSet(option)) return fallback;
    bool ok = false;
    const double v = parser.value(option).toDouble(&ok);
    if (!ok || !(v > 0.0) || !std::isfinite(v)) {
      fail(QStringLiteral("--%1: expected a positive number, got '%2'")
               .arg(option.names().front(), parser.value(option)));
    }
    return v;
  };
  script.duration = positive(duration, 5.0);
  script.slowMotion = positive(slowMotion, 1.0);
  script.everyReplayFrame = !parser.isSet(slowMotion);
  script.framesPerSecond = static_cast<int>(std::lround(positive(fps, 30.0)));
  if (script.framesPerSecond < 1 || script.framesPerSecond > 240)
    fail(QStringLiteral("--fps: expected 1 to 240"));
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    const int w = wh.size() == 2 ? wh[0].toInt() : 0;
    const int h = wh.size() == 2 ? wh[1].toInt() : 0;
    if (w < 64 || h < 64 || w > 8192 || h > 8192)
      fail(QStringLiteral("--size: expected WxH such as 1280x720, got '%1'").arg(parser.value(size)));
    script.size = QSize(w, h);
  }

  // Scripted runs start from an empty profile and leave the user's alone (PrivateSettings.hpp).
  std::optional<clumplab::gui::PrivateSettings> privateSettings;
  if (script.scripted()) {
    privateSettings.emplace();
    if (!privateSettings->valid())
      fail(QStringLiteral("cannot make a private settings folder in %1 (a scripted run never touches your "
                          "settings); set TMPDIR to a writable folder")
               .arg(QDir::tempPath()));
  }
  script.startPaused = parser.isSet(paused);

  MainWindow window;
  if (parser.isSet(view)) {
    const QString unknown = clumplab::gui::setViewItems(
        window.viewport()->options(), parser.value(view).split(QLatin1Char(','), Qt::SkipEmptyParts));
    if (!unknown.isEmpty()) fail(QStringLiteral("--view: unknown item '%1'").arg(unknown));
  }
  if (parser.isSet(coloring) &&
      !clumplab::gui::setColoring(window.viewport()->options(), parser.value(coloring))) {
    fail(QStringLiteral("--coloring: expected body, speed or omega, got '%1'").arg(parser.value(coloring)));
  }
  // The run speed the command line asks for (a lesson's own comes after it unless given here).
  std::optional<std::pair<double, bool>> commandLineSpeed;
  if (parser.isSet(speed)) {
    const QString s = parser.value(speed);
    bool ok = false;
    const double x = s.toDouble(&ok);
    if (s == QLatin1String("max")) {
      commandLineSpeed = {1.0, true};
    } else if (ok && x >= 1e-3 && x <= 1.0) {
      commandLineSpeed = {x, false};
    } else {
      fail(QStringLiteral("--speed: expected 0.001 to 1 or 'max', got '%1'").arg(s));
    }
  } else if (script.quit && script.runFor >= 0.0) {
    commandLineSpeed = {1.0, true};  // batch runs go as fast as they can
  }
  if (commandLineSpeed) window.setSpeed(commandLineSpeed->first, commandLineSpeed->second);
  const bool scriptedClock = script.runFor >= 0.0 || !script.record.isEmpty();
  // A run for a set time or a movie starts paused at the scene's own time: ScriptedRun starts the
  // clock at the scene's first frame (a run loaded while the window starts up would otherwise run on
  // before it is counted).
  window.setRunning(!parser.isSet(paused) && !scriptedClock);
  if (parser.isSet(historyMb)) {
    const double mb = positive(historyMb, 256.0);
    window.simulation().setHistoryLimits(static_cast<std::size_t>(mb * (1 << 20)),
                                         clumplab::sim::StateHistory::kDefaultMaxStates);
  }
  auto* scripted = new ScriptedRun(window, script);
  window.show();

  // A session that crashed left its autosave (Autosave.hpp): offer it back before anything opens.
  bool restored = false;
  if (const auto orphans = clumplab::gui::Autosave::orphans(clumplab::gui::Autosave::defaultFolder());
      !orphans.empty()) {
    const QString choice = parser.isSet(restoreAutosave) ? parser.value(restoreAutosave)
                           : script.quit                 ? QStringLiteral("no")
                                                         : QStringLiteral("ask");
    if (choice != QLatin1String("ask") && choice != QLatin1String("yes") && choice != QLatin1String("no"))
      fail(QStringLiteral("--restore-autosave: expected ask, yes or no, got '%1'").arg(choice));
    const auto& newest = orphans.front();
    bool restore = choice == QLatin1String("yes");
    bool discard = false;
    if (choice == QLatin1String("ask")) {
      QMessageBox box(
          QMessageBox::Question, QStringLiteral("ClumpLab"),
          QObject::tr("ClumpLab did not close properly last time. Restore the scene it autosaved at "
                      "%1%2?")
              .arg(QLocale().toString(newest.saved, QLocale::ShortFormat),
                   newest.source.isEmpty()
                       ? QString()
                       : QObject::tr(" (from %1)").arg(QFileInfo(newest.source).fileName())),
          QMessageBox::NoButton, &window);
      QPushButton* yes = box.addButton(QObject::tr("Restore"), QMessageBox::AcceptRole);
      QPushButton* no = box.addButton(QObject::tr("Discard"), QMessageBox::DestructiveRole);
      box.addButton(QObject::tr("Not now"), QMessageBox::RejectRole);
      box.setDefaultButton(yes);
      box.exec();
      restore = box.clickedButton() == yes;
      discard = box.clickedButton() == no;
    }
    if (restore) {
      const QString error = window.openRestored(newest.path, newest.source);
      if (error.isEmpty()) {
        restored = true;
        clumplab::gui::Autosave::discard(newest);
      } else {
        std::fprintf(stderr, "clumplab: the autosave could not be restored: %s\n", qPrintable(error));
      }
    } else if (discard) {
      clumplab::gui::Autosave::discard(newest);
    }
  }

  QString file = parser.value(sceneOption);
  if (file.isEmpty() && !parser.positionalArguments().isEmpty()) file = parser.positionalArguments().front();
  QString replayFile = parser.value(replay);
  if (replayFile.isEmpty() && clumplab::gui::isTrajectoryFile(file.toStdString()))
    std::swap(replayFile, file);
  if (!restored && file.isEmpty() && !parser.isSet(lesson)) window.openStartScene();
  if (!restored && !file.isEmpty()) {  // (a restored scene stays open instead of the file)
    const QString error = window.openDocument(file, script.quit);
    if (!error.isEmpty()) {
      if (script.quit) fail(error);
      window.openDefaultScene();
    }
  }
  // PaLa's switches reopen the scene just opened.
  const auto switchFailed = [&](const QString& error) {
    if (!error.isEmpty() && script.quit) fail(error);
  };
  if (parser.isSet(spheres)) {
    const QString kind = parser.value(spheres);
    if (kind != QLatin1String("bounding") && kind != QLatin1String("volume"))
      fail(QStringLiteral("--spheres: expected bounding or volume, got '%1'").arg(kind));
    switchFailed(window.setSphereMode(kind == QLatin1String("bounding")
                                          ? clumplab::SphereKind::Bounding
                                          : clumplab::SphereKind::VolumeEquivalent));
  }
  if (parser.isSet(motion)) {
    using clumplab::gui::MotionChoice;
    const QString plane = parser.value(motion);
    MotionChoice choice = MotionChoice::ThreeD;
    if (plane == QLatin1String("xy")) {
      choice = MotionChoice::PlaneXY;
    } else if (plane == QLatin1String("xz")) {
      choice = MotionChoice::PlaneXZ;
    } else if (plane == QLatin1String("yz")) {
      choice = MotionChoice::PlaneYZ;
    } else if (plane != QLatin1String("3d")) {
      fail(QStringLiteral("--plane: expected xy, xz, yz or 3d, got '%1'").arg(plane));
    }
    switchFailed(window.setMotion(choice));
  }
  if (parser.isSet(lesson)) {  // instead of the scene: the lesson opens its own
    const int index = window.findLesson(parser.value(lesson));
    if (index < 0) {
      QStringList names;
      for (std::size_t i = 0; i < window.lessonDock()->lessons().size(); ++i) {
        names << QStringLiteral("%1 %2").arg(i + 1).arg(QFileInfo(window.lessonDock()->lessons()[i].file)
                                                            .completeBaseName()
                                                            .section(QLatin1Char('-'), 1));
      }
      fail(QStringLiteral("--lesson: no lesson '%1' (there are: %2)")
               .arg(parser.value(lesson), names.join(QStringLiteral(", "))));
    }
    if (const QString error = window.openLesson(index, !parser.isSet(paused) && !scriptedClock);
        !error.isEmpty())
      fail(error);
    if (commandLineSpeed) window.setSpeed(commandLineSpeed->first, commandLineSpeed->second);
  }
  if (!replayFile.isEmpty()) {  // over the live scene, which waits paused
    const QString error = window.openDocument(replayFile, script.quit);
    if (!error.isEmpty() && script.quit) fail(error);
  }
  const int status = QCoreApplication::exec();
  return status != 0 ? status : scripted->exitCode();
}
