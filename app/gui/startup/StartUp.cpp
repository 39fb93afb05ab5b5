// What the desktop app does with its command line once its window exists (StartUp.hpp).
#include "gui/startup/StartUp.hpp"

#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <cstdio>

#include "gui/document/Autosave.hpp"
#include "gui/document/DocumentLoader.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

namespace clumplab::gui {

namespace {

// The newest autosave a crashed session left (Autosave.hpp), restored or discarded as `choice` (ask,
// yes or no) says. True when it was restored.
bool offerAutosave(MainWindow& window, const QString& choice) {
  const auto orphans = Autosave::orphans(Autosave::defaultFolder());
  if (orphans.empty()) return false;
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
      Autosave::discard(newest);
      return true;
    }
    std::fprintf(stderr, "clumplab: the autosave could not be restored: %s\n", qPrintable(error));
  } else if (discard) {
    Autosave::discard(newest);
  }
  return false;
}

void openLesson(MainWindow& window, const StartOptions& options) {
  const int index = window.findLesson(options.lesson);
  if (index < 0) {
    QStringList names;
    for (std::size_t i = 0; i < window.lessonDock()->lessons().size(); ++i) {
      names << QStringLiteral("%1 %2").arg(i + 1).arg(
          QFileInfo(window.lessonDock()->lessons()[i].file).completeBaseName().section(QLatin1Char('-'), 1));
    }
    refuseStart(QStringLiteral("--lesson: no lesson '%1' (there are: %2)")
                    .arg(options.lesson, names.join(QStringLiteral(", "))));
  }
  if (const QString error = window.openLesson(index, options.startsRunning()); !error.isEmpty())
    refuseStart(error);
  // The command line's run speed over the lesson's own.
  if (options.speed) window.setSpeed(options.speed->first, options.speed->second);
}

}  // namespace

void prepareWindow(MainWindow& window, const StartOptions& options) {
  if (options.view) {
    const QString unknown = setViewItems(window.viewport()->options(), *options.view);
    if (!unknown.isEmpty()) refuseStart(QStringLiteral("--view: unknown item '%1'").arg(unknown));
  }
  if (options.coloring && !setColoring(window.viewport()->options(), *options.coloring))
    refuseStart(QStringLiteral("--coloring: expected body, speed or omega, got '%1'").arg(*options.coloring));
  if (options.speed) window.setSpeed(options.speed->first, options.speed->second);
  // A run for a set time or a movie starts paused at the scene's own time: ScriptedRun starts the
  // clock at the scene's first frame (a run loaded while the window starts up would otherwise run on
  // before it is counted).
  window.setRunning(options.startsRunning());
  if (options.historyMb) {
    window.simulation().setHistoryLimits(static_cast<std::size_t>(*options.historyMb * (1 << 20)),
                                         sim::StateHistory::kDefaultMaxStates);
  }
}

void openStartDocuments(MainWindow& window, const StartOptions& options) {
  const bool quit = options.script.quit;
  const bool restored = offerAutosave(window, options.restoreAutosave);
  QString file = options.file;
  QString replayFile = options.replayFile;
  if (replayFile.isEmpty() && isTrajectoryFile(file.toStdString())) std::swap(replayFile, file);
  if (!restored && file.isEmpty() && options.lesson.isEmpty()) window.openStartScene();
  if (!restored && !file.isEmpty()) {  // (a restored scene stays open instead of the file)
    const QString error = window.openDocument(file, quit);
    if (!error.isEmpty()) {
      if (quit) refuseStart(error);
      window.openDefaultScene();
    }
  }
  // PaLa's switches reopen the scene just opened.
  const auto switched = [&](const QString& error) {
    if (!error.isEmpty() && quit) refuseStart(error);
  };
  if (options.spheres) switched(window.setSphereMode(*options.spheres));
  if (options.motion) switched(window.setMotion(*options.motion));
  if (!options.lesson.isEmpty()) openLesson(window, options);  // instead of the scene: it opens its own
  if (!replayFile.isEmpty()) {                                 // over the live scene, which waits paused
    const QString error = window.openDocument(replayFile, quit);
    if (!error.isEmpty() && quit) refuseStart(error);
  }
}

}  // namespace clumplab::gui
