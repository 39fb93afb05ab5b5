// clumplab: the desktop app. `clumplab [FILE]` opens a scene (JSON) or a mesh (STL, OBJ, PLY, ...);
// with no file, the default scene. A trajectory (.cltraj, or --replay FILE) opens in replay mode,
// over the scene (or the default one). The options: gui/startup/StartOptions.hpp; the scripted
// screenshot and movie runs: ScriptedRun.hpp.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QSurfaceFormat>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/HeapPolicy.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/base/Version.hpp"
#include "gui/document/ExampleScenes.hpp"
#include "gui/document/PrivateSettings.hpp"
#include "gui/document/ScriptedRun.hpp"
#include "gui/startup/StartOptions.hpp"
#include "gui/startup/StartUp.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/window/MainWindow.hpp"
#include "gui/window/QuitOnSignals.hpp"
#include "resources/Resources.hpp"

namespace {

[[noreturn]] void fail(const QString& message) {
  std::fprintf(stderr, "clumplab: %s\n", qPrintable(message));
  std::exit(2);
}

// True when Qt's default platform (X11 or Wayland) has nowhere to draw: no DISPLAY, no
// WAYLAND_DISPLAY and no QT_QPA_PLATFORM chosen (offscreen, vnc, ...).
bool noDisplay() {
  return qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
         qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

// --help, --version and --examples print and exit: they need no display, so they get no
// QApplication (which would fail without one).
std::unique_ptr<QCoreApplication> makeApplication(int& argc, char** argv) {
  if (clumplab::gui::printsAndExits(argc, argv)) return std::make_unique<QCoreApplication>(argc, argv);
  auto gui = std::make_unique<QApplication>(argc, argv);
  // The window's icon, and the desktop entry (clumplab.desktop) a Wayland compositor matches it to.
  clumplab::initResources();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/clumplab.png")));
  QGuiApplication::setDesktopFileName(QStringLiteral("clumplab"));
  return gui;
}

}  // namespace

int main(int argc, char** argv) {
  clumplab::keepLargeBlocksMapped();
  using namespace clumplab::gui;
  if (!printsAndExits(argc, argv) && noDisplay()) {
    std::fprintf(stderr,
                 "clumplab: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): run "
                 "it on a desktop, or scripted runs under xvfb-run (see clumplab --help)\n");
    return 2;
  }
  const std::unique_ptr<QCoreApplication> app = makeApplication(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("ClumpLab"));
  QCoreApplication::setApplicationName(QStringLiteral("ClumpLab"));
  // --version prints "ClumpLab 0.1.0 (revision 2ae26b6f1c3d)"; Help > About shows the same.
  QCoreApplication::setApplicationVersion(
      QStringLiteral("%1 (revision %2)").arg(clumplab::clumplabVersion(), clumplab::clumplabRevision()));
  // SIGTERM / SIGINT / SIGHUP close the windows as Quit does (the simulation thread joins, status 0).
  const QuitOnSignals quitOnSignals;

  try {
    QCommandLineParser parser;
    const StartOptions options = readStartOptions(parser, *app);
    if (options.examples) {
      std::fputs(qPrintable(exampleScenesListing()), stdout);
      return exampleScenesFolder().isEmpty() ? 1 : 0;
    }
    // Probes OpenGL with an offscreen surface: after the parser, which needs no display.
    QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat());
    try {
      (void)clumplab::resourceLimits();  // a bad CLUMPLAB_MAX_* variable is reported here
      std::vector<std::string> limits = options.limitOptions;
      clumplab::takeLimitOptions(limits);
    } catch (const std::exception& e) {
      fail(QString::fromStdString(e.what()));
    }
    // Scripted runs start from an empty profile and leave the user's alone (PrivateSettings.hpp).
    std::optional<PrivateSettings> privateSettings;
    if (options.script.scripted()) {
      privateSettings.emplace();
      if (!privateSettings->valid())
        fail(QStringLiteral("cannot make a private settings folder in %1 (a scripted run never touches your "
                            "settings); set TMPDIR to a writable folder")
                 .arg(QDir::tempPath()));
    }
    MainWindow window;
    prepareWindow(window, options);
    auto* scripted = new ScriptedRun(window, window, options.script);
    window.show();
    openStartDocuments(window, options);
    const int status = QCoreApplication::exec();
    return status != 0 ? status : scripted->exitCode();
  } catch (const StartError& e) {
    fail(QString::fromStdString(e.what()));
  }
}
