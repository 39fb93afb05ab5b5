#include "gui/lessons/LessonController.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <algorithm>

#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

LessonController::LessonController(LessonHost& host, QWidget& window)
    : QObject(&window), host_(host), window_(window) {}

QString LessonController::open(int index, bool run) {
  LessonDock& lessons = *host_.lessonDock();
  if (index < 0 || index >= static_cast<int>(lessons.lessons().size())) return tr("no such lesson");
  const Lesson lesson = lessons.lessons()[static_cast<std::size_t>(index)];
  QString error;
  const QString cache = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                            .filePath(QStringLiteral("lessons"));
  const QString path = extractLessonScene(lesson, cache, &error);
  if (path.isEmpty()) {
    QMessageBox::warning(&window_, tr("Lesson"), error);
    return error;
  }
  EnergyPlotDock& energy = *host_.energyDock();
  InspectorDock& inspector = *host_.inspectorDock();
  DzhanibekovDock& dzhanibekov = *host_.dzhanibekovDock();
  Viewport& view = *host_.viewport();
  energy.stopComparison();
  if (!before_) {
    before_ = Before{host_.speed(),         host_.asFastAsPossible(),
                     view.options(),        static_cast<int>(energy.view()),
                     inspector.isVisible(), dzhanibekov.isVisible()};
  }
  opening_ = true;
  host_.setRunning(run);
  error = host_.openDocument(path, false);
  opening_ = false;
  if (!error.isEmpty()) return error;
  render::ViewOptions& o = view.options();
  if (!lesson.show.isEmpty()) setViewItems(o, lesson.show);
  setColoring(o, lesson.coloring);
  host_.showViewOptions();
  host_.setSpeed(lesson.speed, false);
  const int body = std::max(lesson.dzhanibekovBody, 0);
  if (lesson.dzhanibekovBody >= 0 || lesson.plot == QLatin1String("omega-body")) {
    view.setSelectedBody(body);
    inspector.setVisible(true);
    inspector.raise();
  }
  if (lesson.dzhanibekovBody >= 0) {
    host_.openDzhanibekovPanel(lesson.dzhanibekovBody);
  } else if (dzhanibekov.isVisible()) {
    dzhanibekov.hide();  // a lesson without it: the panel of the one before goes
  }
  energy.show();
  if (lesson.plot == QLatin1String("drift")) {
    energy.showView(EnergyPlotDock::View::Drift);
  } else if (lesson.plot == QLatin1String("equipartition")) {
    energy.showView(EnergyPlotDock::View::Equipartition);
  } else if (lesson.plot == QLatin1String("time-step-comparison")) {
    const std::shared_ptr<const Scene> scene = host_.scene();
    energy.startComparison(scene, lesson.timeSteps, scene->duration > 0.0 ? scene->duration : 1.0);
  } else {
    energy.showView(EnergyPlotDock::View::Energies);
  }
  camera_ = lesson.camera;
  cameraTicket_ = host_.simulation().commandsPosted();
  lessons.showLesson(index);
  lessons.show();
  lessons.raise();
  view.update();
  return QString();
}

void LessonController::close() {
  LessonDock& lessons = *host_.lessonDock();
  if (lessons.currentLesson() < 0) return;
  host_.energyDock()->stopComparison();
  camera_.clear();
  lessons.showLesson(-1);
  if (!before_) return;
  const Before before = *before_;
  before_.reset();
  host_.setSpeed(before.speed, before.asFast);
  Viewport& view = *host_.viewport();
  view.options() = before.view;
  host_.showViewOptions();
  host_.energyDock()->showView(static_cast<EnergyPlotDock::View>(before.plot));
  host_.inspectorDock()->setVisible(before.inspectorVisible);
  host_.dzhanibekovDock()->setVisible(before.dzhanibekovVisible);
  view.update();
}

int LessonController::find(const QString& which) const {
  const std::vector<Lesson>& lessons = host_.lessonDock()->lessons();
  bool isNumber = false;
  const int number = which.toInt(&isNumber);
  if (isNumber) return number >= 1 && number <= static_cast<int>(lessons.size()) ? number - 1 : -1;
  static const QRegularExpression leadingNumber(QStringLiteral("^[0-9]+-"));
  const QString wanted = which.trimmed().toLower().remove(leadingNumber).remove(QStringLiteral(".json"));
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    const QString stem = QFileInfo(lessons[i].file).completeBaseName().toLower().remove(leadingNumber);
    if (wanted == stem || wanted == lessons[i].title.trimmed().toLower()) return static_cast<int>(i);
  }
  return -1;
}

void LessonController::applyCamera(const sim::SimulationFrame& frame) {
  if (camera_.isEmpty() || frame.commandsApplied < cameraTicket_) return;
  // The lesson's view, once its scene is on screen (the view has just framed it).
  Viewport& view = *host_.viewport();
  render::Camera goal = view.camera();
  if (camera_ == QLatin1String("front")) {
    goal.lookAlong(Vec3::UnitY());
    view.glideTo(goal);
  } else if (camera_ == QLatin1String("along-L")) {
    view.lookAlongAngularMomentum();
  }
  camera_.clear();
}

}  // namespace clumplab::gui
