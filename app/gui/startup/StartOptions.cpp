// The desktop app's command line (StartOptions.hpp).
#include "gui/startup/StartOptions.hpp"

#include <QCoreApplication>
#include <cmath>
#include <string_view>

namespace clumplab::gui {

namespace {

QCommandLineOption option(const char* name, const char* description, const char* value = nullptr) {
  return value == nullptr ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description))
                          : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(description),
                                               QString::fromLatin1(value));
}

// The options, in the order --help lists them.
struct Options {
  QCommandLineOption scene = option("scene", "open FILE", "FILE");
  QCommandLineOption runFor = option("run-for", "run for SECONDS of simulated time", "SECONDS");
  QCommandLineOption shot = option("screenshot", "save the 3D view to PNG when done", "PNG");
  QCommandLineOption windowShot =
      option("screenshot-window", "save the whole window (docks and plots) to PNG when done", "PNG");
  QCommandLineOption size =
      option("size", "size of the 3D view and of recorded frames, e.g. 1280x720", "WxH");
  QCommandLineOption quit = option("quit", "quit when the scripted run is done");
  QCommandLineOption speed = option("speed", "simulated seconds per wall second (0.001 to 1, or 'max')", "X");
  QCommandLineOption paused = option("paused", "start paused");
  QCommandLineOption view = option("view",
                                   "what to draw: any of pebbles,wireframe,mesh,axes,velocity,omega,L,"
                                   "trails,contacts,stereo (comma-separated)",
                                   "LIST");
  QCommandLineOption coloring =
      option("coloring", "colour pebbles per body, by speed or by |omega|", "body|speed|omega");
  QCommandLineOption record =
      option("record",
             "record a movie (.mp4, .webm, .gif, or a folder for PNG frames), a fixed "
             "simulated time per frame",
             "FILE");
  QCommandLineOption duration = option("duration", "simulated seconds to record (5)", "SECONDS");
  QCommandLineOption fps = option("fps", "frames per second of the movie (30)", "N");
  QCommandLineOption slowMotion = option("slow-motion", "video seconds per simulated second (1)", "X");
  QCommandLineOption plot = option("plot",
                                   "draw the energy plot into the movie's frames (bottom left); in a lesson, "
                                   "the lesson's plot (omega in the body frame in the Dzhanibekov lessons)");
  QCommandLineOption plotOmega =
      option("plot-omega",
             "draw the selected body's body-frame omega (body 0 if none) into the movie's frames instead");
  QCommandLineOption replay = option("replay",
                                     "replay a trajectory (.cltraj); with --record, re-render it: one video "
                                     "frame per trajectory frame (with --slow-motion: per 1/(fps x X) of "
                                     "recorded time)",
                                     "FILE");
  QCommandLineOption historyMb = option("history-mb", "memory for stepping back, in MB (256)", "MB");
  QCommandLineOption report =
      option("report", "print a JSON summary of the scripted run (throughput, frame rate)");
  QCommandLineOption spheres =
      option("spheres", "every clump as its bounding or volume-equivalent sphere", "bounding|volume");
  QCommandLineOption motion =
      option("plane",
             "2D in a coordinate plane through the middle of the bodies, or 3D, whatever the scene file says",
             "xy|xz|yz|3d");
  QCommandLineOption lesson = option(
      "lesson", "open a lesson: its number in the Lessons menu, its name (dzhanibekov-wingnut) or title",
      "N|NAME");
  // Resource limits (core/base/ResourceLimits.hpp), also read from CLUMPLAB_MAX_* at start-up.
  std::vector<QCommandLineOption> limits = {
      option("max-pebbles", "refuse scenes of more than N pebbles", "N"),
      option("max-fill-points", "largest grid a pebble fill tests", "N"),
      option("max-triangles", "refuse meshes of more triangles", "N"),
      option("max-memory-mb", "refuse scenes estimated to need more", "MB")};
  QCommandLineOption restoreAutosave =
      option("restore-autosave",
             "a scene autosaved before a crash: ask (the default), yes or no (with --quit: no)", "CHOICE");
  QCommandLineOption examples = option("examples", "print where the example scenes are, and list them");

  void declare(QCommandLineParser& parser) const {
    parser.setApplicationDescription(QStringLiteral("ClumpLab: a sandbox for rigid clumps"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QStringLiteral("a scene (.json), a mesh (.stl, .obj, .ply) or a trajectory (.cltraj)"));
    parser.addOptions({windowShot, plotOmega, lesson, scene,     runFor,  shot,     size, quit,
                       speed,      paused,    view,   coloring,  record,  duration, fps,  slowMotion,
                       plot,       report,    replay, historyMb, spheres, motion});
    for (const QCommandLineOption& limit : limits) parser.addOption(limit);
    parser.addOptions({restoreAutosave, examples});
  }
};

// The option's value as a positive finite number, or `fallback` when it is not given.
double positive(const QCommandLineParser& parser, const QCommandLineOption& option, double fallback) {
  if (!parser.isSet(option)) return fallback;
  bool ok = false;
  const double v = parser.value(option).toDouble(&ok);
  if (!ok || !(v > 0.0) || !std::isfinite(v)) {
    refuseStart(QStringLiteral("--%1: expected a positive number, got '%2'")
                    .arg(option.names().front(), parser.value(option)));
  }
  return v;
}

ScriptOptions readScript(const QCommandLineParser& parser, const Options& o) {
  ScriptOptions script;
  if (parser.isSet(o.runFor)) {
    bool ok = false;
    script.runFor = parser.value(o.runFor).toDouble(&ok);
    if (!ok || script.runFor < 0.0)
      refuseStart(
          QStringLiteral("--run-for: expected a time in seconds, got '%1'").arg(parser.value(o.runFor)));
  }
  script.screenshot = parser.value(o.shot);
  script.windowScreenshot = parser.value(o.windowShot);
  script.quit = parser.isSet(o.quit);
  script.report = parser.isSet(o.report);
  script.record = parser.value(o.record);
  script.plotInset = parser.isSet(o.plot);
  script.plotOmega = parser.isSet(o.plotOmega);
  script.duration = positive(parser, o.duration, 5.0);
  script.slowMotion = positive(parser, o.slowMotion, 1.0);
  script.everyReplayFrame = !parser.isSet(o.slowMotion);
  script.framesPerSecond = static_cast<int>(std::lround(positive(parser, o.fps, 30.0)));
  if (script.framesPerSecond < 1 || script.framesPerSecond > 240)
    refuseStart(QStringLiteral("--fps: expected 1 to 240"));
  if (parser.isSet(o.size)) {
    const QStringList wh = parser.value(o.size).split(QLatin1Char('x'));
    const int w = wh.size() == 2 ? wh[0].toInt() : 0;
    const int h = wh.size() == 2 ? wh[1].toInt() : 0;
    if (w < 64 || h < 64 || w > 8192 || h > 8192)
      refuseStart(
          QStringLiteral("--size: expected WxH such as 1280x720, got '%1'").arg(parser.value(o.size)));
    script.size = QSize(w, h);
  }
  script.startPaused = parser.isSet(o.paused);
  return script;
}

std::optional<std::pair<double, bool>> readSpeed(const QCommandLineParser& parser, const Options& o,
                                                 const ScriptOptions& script) {
  if (!parser.isSet(o.speed)) {
    if (script.quit && script.runFor >= 0.0)
      return std::pair{1.0, true};  // batch runs go as fast as they can
    return std::nullopt;
  }
  const QString s = parser.value(o.speed);
  bool ok = false;
  const double x = s.toDouble(&ok);
  if (s == QLatin1String("max")) return std::pair{1.0, true};
  if (ok && x >= 1e-3 && x <= 1.0) return std::pair{x, false};
  refuseStart(QStringLiteral("--speed: expected 0.001 to 1 or 'max', got '%1'").arg(s));
}

std::optional<MotionChoice> readMotion(const QString& plane) {
  if (plane == QLatin1String("xy")) return MotionChoice::PlaneXY;
  if (plane == QLatin1String("xz")) return MotionChoice::PlaneXZ;
  if (plane == QLatin1String("yz")) return MotionChoice::PlaneYZ;
  if (plane == QLatin1String("3d")) return MotionChoice::ThreeD;
  refuseStart(QStringLiteral("--plane: expected xy, xz, yz or 3d, got '%1'").arg(plane));
}

}  // namespace

void refuseStart(const QString& message) {
  throw StartError(message.toStdString());
}

bool printsAndExits(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version" || a == "--examples")
      return true;
  }
  return false;
}

StartOptions readStartOptions(QCommandLineParser& parser, const QCoreApplication& app) {
  const Options o;
  o.declare(parser);
  parser.process(app);  // --help and --version print and exit here
  StartOptions s;
  s.examples = parser.isSet(o.examples);
  if (s.examples) return s;
  for (const QCommandLineOption& limit : o.limits) {
    if (parser.isSet(limit))
      s.limitOptions.insert(s.limitOptions.end(),
                            {"--" + limit.names().front().toStdString(), parser.value(limit).toStdString()});
  }
  s.script = readScript(parser, o);
  if (parser.isSet(o.view)) s.view = parser.value(o.view).split(QLatin1Char(','), Qt::SkipEmptyParts);
  if (parser.isSet(o.coloring)) s.coloring = parser.value(o.coloring);
  s.speed = readSpeed(parser, o, s.script);
  if (parser.isSet(o.historyMb)) s.historyMb = positive(parser, o.historyMb, 256.0);
  if (parser.isSet(o.spheres)) {
    const QString kind = parser.value(o.spheres);
    if (kind != QLatin1String("bounding") && kind != QLatin1String("volume"))
      refuseStart(QStringLiteral("--spheres: expected bounding or volume, got '%1'").arg(kind));
    s.spheres = kind == QLatin1String("bounding") ? SphereKind::Bounding : SphereKind::VolumeEquivalent;
  }
  if (parser.isSet(o.motion)) s.motion = readMotion(parser.value(o.motion));
  s.restoreAutosave = parser.isSet(o.restoreAutosave) ? parser.value(o.restoreAutosave)
                      : s.script.quit                 ? QStringLiteral("no")
                                                      : QStringLiteral("ask");
  if (s.restoreAutosave != QLatin1String("ask") && s.restoreAutosave != QLatin1String("yes") &&
      s.restoreAutosave != QLatin1String("no"))
    refuseStart(
        QStringLiteral("--restore-autosave: expected ask, yes or no, got '%1'").arg(s.restoreAutosave));
  s.lesson = parser.value(o.lesson);
  s.file = parser.value(o.scene);
  if (s.file.isEmpty() && !parser.positionalArguments().isEmpty())
    s.file = parser.positionalArguments().front();
  s.replayFile = parser.value(o.replay);
  return s;
}

}  // namespace clumplab::gui
