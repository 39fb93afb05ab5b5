#pragma once
// The desktop app's command line (`clumplab --help`): every option declared, read and checked
// before a window opens. A bad value throws StartError with the line clumplab prints.
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/clump/SphereKind.hpp"
#include "gui/document/MotionChoice.hpp"
#include "gui/document/ScriptedRun.hpp"

namespace clumplab::gui {

struct StartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws StartError with `message`, the line clumplab prints (after "clumplab: ") before it exits with 2.
[[noreturn]] void refuseStart(const QString& message);

struct StartOptions {
  QString file;        // a scene, mesh or trajectory to open ("" for the start scene)
  QString replayFile;  // a trajectory to replay over the scene ("" for none)
  QString lesson;      // a lesson's number, name or title ("" for none)
  ScriptOptions script;
  std::optional<QStringList> view;  // what to draw (ViewChoices.hpp)
  std::optional<QString> coloring;  // body, speed or omega
  // The run speed asked for: simulated seconds per wall second, and whether as fast as possible.
  std::optional<std::pair<double, bool>> speed;
  std::optional<double> historyMb;    // memory for stepping back [MB]
  std::optional<SphereKind> spheres;  // PaLa's clumps-as-spheres switch
  std::optional<MotionChoice> motion;
  QString restoreAutosave = QStringLiteral("ask");  // ask, yes or no
  std::vector<std::string> limitOptions;            // "--max-pebbles", "N", ... (ResourceLimits.hpp)
  bool examples = false;                            // print the example scenes and quit

  // Whether the simulation runs from the start: not with --paused, nor in a run for a set time or a
  // movie, which wait at the scene's own time for ScriptedRun to start their clock.
  bool startsRunning() const { return !script.startPaused && script.runFor < 0.0 && script.record.isEmpty(); }
};

// True when the arguments ask only for --help, --version or --examples: printed without a display.
bool printsAndExits(int argc, char** argv);

// Declares the options on `parser`, processes the application's arguments (--help and --version
// print and exit there) and reads them. Throws StartError.
StartOptions readStartOptions(QCommandLineParser& parser, const QCoreApplication& app);

}  // namespace clumplab::gui
