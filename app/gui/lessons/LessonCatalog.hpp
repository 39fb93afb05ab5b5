#pragma once
// Lessons: a scene with a short explanatory text and the view, plots and panels that show its
// point ("clumplab-lesson/1" files, resources/lessons). The files are embedded in the app; a
// lesson's scene and the meshes it names are copied out to the cache folder to be opened like any
// scene file.
#include <QString>
#include <QStringList>
#include <stdexcept>
#include <vector>

namespace clumplab::gui {

struct Lesson {
  QString file;   // where it was read from (":/lessons/10-....json")
  QString title;  // one line
  QString summary;
  QStringList paragraphs;  // plain text, shown beside the view
  QString scene;           // a scene of resources/scenes (file name)
  // The 3D view: what to draw (the --view names), the colouring, and the camera: "fit" (the whole
  // scene), "front" (looking along +y), "along-L" (along the angular momentum of the Dzhanibekov
  // body, or of body 0).
  QStringList show;
  QString coloring = QStringLiteral("body");
  QString camera = QStringLiteral("fit");
  // The plot beside the view: "energy", "drift", "omega-body" (the lesson body's body-frame
  // angular velocity), "equipartition" (the running <E_rot>/<E_trans>) or "time-step-comparison"
  // (the scene run at each of `timeSteps` in the background, its energy deviation against time).
  QString plot = QStringLiteral("energy");
  std::vector<double> timeSteps;  // [s]
  double speed = 1.0;             // simulated seconds per wall second
  int dzhanibekovBody = -1;       // opens the Dzhanibekov panel on this body (-1: not)
  QStringList requiredFeatures;   // features the lesson needs (hidden when one is missing)
};

class LessonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses one lesson file; throws LessonError naming `file` and the field at fault.
Lesson parseLesson(const QByteArray& json, const QString& file);

// The lessons of `folder` ("*.json", by file name), those whose requirements `features` lacks left
// out. Files that do not parse are reported in `errors` and skipped.
std::vector<Lesson> loadLessons(const QString& folder, const QStringList& features, QStringList* errors);

// The lessons shipped with the app (":/lessons"), for the features this build has.
std::vector<Lesson> builtinLessons(QStringList* errors = nullptr);
QStringList availableFeatures();

// Copies the lesson's scene (":/scenes/<scene>") and the meshes it names (":/meshes/...") to
// `cacheFolder`, keeping their relative places, and returns the scene's path there; "" with
// `error` set when a file is missing or cannot be written.
QString extractLessonScene(const Lesson& lesson, const QString& cacheFolder, QString* error);

}  // namespace clumplab::gui
