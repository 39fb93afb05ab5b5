#include "gui/lessons/LessonCatalog.hpp"

#include "gui/view/ViewChoices.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <cmath>

#include "core/model/ModelParameters.hpp"

namespace clumplab::gui {

namespace {

const QStringList kCameras = {QStringLiteral("fit"), QStringLiteral("front"), QStringLiteral("along-L")};
const QStringList kColorings = {QStringLiteral("body"), QStringLiteral("speed"), QStringLiteral("omega")};
const QStringList kPlots = {QStringLiteral("energy"), QStringLiteral("drift"), QStringLiteral("omega-body"),
                            QStringLiteral("equipartition"), QStringLiteral("time-step-comparison")};

[[noreturn]] void fail(const QString& file, const QString& field, const QString& problem) {
  throw LessonError(QStringLiteral("%1: %2%3")
                        .arg(file, field.isEmpty() ? QString() : field + QStringLiteral(": "), problem)
                        .toStdString());
}

QString text(const QJsonObject& o, const QString& key, const QString& file, bool required) {
  const QJsonValue v = o.value(key);
  if (v.isUndefined()) {
    if (required) fail(file, key, QStringLiteral("missing required field"));
    return {};
  }
  if (!v.isString() || v.toString().trimmed().isEmpty())
    fail(file, key, QStringLiteral("expected a non-empty string"));
  return v.toString();
}

QString oneOf(const QJsonObject& o, const QString& key, const QStringList& allowed, const QString& fallback,
              const QString& file, const QString& path) {
  const QJsonValue v = o.value(key);
  if (v.isUndefined()) return fallback;
  if (!v.isString() || !allowed.contains(v.toString()))
    fail(file, path + key, QStringLiteral("expected one of %1").arg(allowed.join(QStringLiteral(", "))));
  return v.toString();
}

QStringList strings(const QJsonValue& v, const QString& file, const QString& field) {
  if (!v.isArray()) fail(file, field, QStringLiteral("expected an array of strings"));
  QStringList out;
  const QJsonArray a = v.toArray();
  for (qsizetype i = 0; i < a.size(); ++i) {
    if (!a[i].isString())
      fail(file, QStringLiteral("%1[%2]").arg(field).arg(i), QStringLiteral("expected a string"));
    out << a[i].toString();
  }
  return out;
}

void allowOnly(const QJsonObject& o, const QStringList& keys, const QString& file, const QString& path) {
  for (const QString& k : o.keys()) {
    if (!keys.contains(k))
      fail(file, path + k,
           QStringLiteral("unknown key (allowed here: %1)").arg(keys.join(QStringLiteral(", "))));
  }
}
}  // namespace

Lesson parseLesson(const QByteArray& json, const QString& file) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError) {
    const int line = static_cast<int>(json.left(error.offset).count('\n')) + 1;
    fail(file, QString(), QStringLiteral("line %1: %2").arg(line).arg(error.errorString()));
  }
  if (!doc.isObject()) fail(file, QString(), QStringLiteral("expected a JSON object"));
  const QJsonObject o = doc.object();
  allowOnly(
      o,
      {QStringLiteral("format"), QStringLiteral("title"), QStringLiteral("summary"), QStringLiteral("scene"),
       QStringLiteral("text"), QStringLiteral("view"), QStringLiteral("plot"), QStringLiteral("time_steps"),
       QStringLiteral("speed"), QStringLiteral("dzhanibekov"), QStringLiteral("requires")},
      file, QString());
  if (o.value(QStringLiteral("format")).toString() != QLatin1String("clumplab-lesson/1"))
    fail(file, QStringLiteral("format"), QStringLiteral("expected \"clumplab-lesson/1\""));
  Lesson l;
  l.file = file;
  l.title = text(o, QStringLiteral("title"), file, true);
  l.summary = text(o, QStringLiteral("summary"), file, true);
  l.scene = text(o, QStringLiteral("scene"), file, true);
  if (l.scene.contains(QLatin1Char('/')) || !l.scene.endsWith(QLatin1String(".json")))
    fail(file, QStringLiteral("scene"),
         QStringLiteral("expected the file name of a scene in resources/scenes"));
  l.paragraphs = strings(o.value(QStringLiteral("text")), file, QStringLiteral("text"));
  if (l.paragraphs.isEmpty()) fail(file, QStringLiteral("text"), QStringLiteral("a lesson needs some text"));
  if (o.contains(QStringLiteral("view"))) {
    const QJsonValue v = o.value(QStringLiteral("view"));
    if (!v.isObject()) fail(file, QStringLiteral("view"), QStringLiteral("expected an object"));
    const QJsonObject view = v.toObject();
    allowOnly(view, {QStringLiteral("show"), QStringLiteral("coloring"), QStringLiteral("camera")}, file,
              QStringLiteral("view."));
    if (view.contains(QStringLiteral("show"))) {
      l.show = strings(view.value(QStringLiteral("show")), file, QStringLiteral("view.show"));
      for (qsizetype i = 0; i < l.show.size(); ++i) {
        if (!viewItemNames().contains(l.show[i]))
          fail(file, QStringLiteral("view.show[%1]").arg(i),
               QStringLiteral("expected one of %1").arg(viewItemNames().join(QStringLiteral(", "))));
      }
    }
    l.coloring =
        oneOf(view, QStringLiteral("coloring"), kColorings, l.coloring, file, QStringLiteral("view."));
    l.camera = oneOf(view, QStringLiteral("camera"), kCameras, l.camera, file, QStringLiteral("view."));
  }
  l.plot = oneOf(o, QStringLiteral("plot"), kPlots, l.plot, file, QString());
  if (o.contains(QStringLiteral("time_steps"))) {
    const QJsonValue v = o.value(QStringLiteral("time_steps"));
    if (!v.isArray() || v.toArray().isEmpty() || v.toArray().size() > 6)
      fail(file, QStringLiteral("time_steps"), QStringLiteral("expected 1 to 6 time steps"));
    const ModelParameter& step = modelParameter("time_step");
    for (const QJsonValue& dt : v.toArray()) {
      if (!dt.isDouble() || !step.range.contains(dt.toDouble()))
        fail(file, QStringLiteral("time_steps"),
             QStringLiteral("every time step %1")
                 .arg(QString::fromStdString(step.range.requirement(std::string(step.unit)))));
      l.timeSteps.push_back(dt.toDouble());
    }
  }
  if (l.plot == QLatin1String("time-step-comparison") && l.timeSteps.size() < 2)
    fail(file, QStringLiteral("time_steps"),
         QStringLiteral("a time-step comparison needs at least two steps"));
  if (o.contains(QStringLiteral("speed"))) {
    const double s = o.value(QStringLiteral("speed")).toDouble(-1.0);
    if (!(s >= 1e-3 && s <= 1.0)) fail(file, QStringLiteral("speed"), QStringLiteral("expected 0.001 to 1"));
    l.speed = s;
  }
  if (o.contains(QStringLiteral("dzhanibekov"))) {
    const QJsonValue v = o.value(QStringLiteral("dzhanibekov"));
    if (!v.isObject()) fail(file, QStringLiteral("dzhanibekov"), QStringLiteral("expected an object"));
    allowOnly(v.toObject(), {QStringLiteral("body")}, file, QStringLiteral("dzhanibekov."));
    const QJsonValue body = v.toObject().value(QStringLiteral("body"));
    if (!body.isDouble() || body.toDouble() < 0 || body.toDouble() != std::floor(body.toDouble()))
      fail(file, QStringLiteral("dzhanibekov.body"), QStringLiteral("expected a body index (0, 1, ...)"));
    l.dzhanibekovBody = body.toInt();
  }
  if (o.contains(QStringLiteral("requires")))
    l.requiredFeatures = strings(o.value(QStringLiteral("requires")), file, QStringLiteral("requires"));
  return l;
}

std::vector<Lesson> loadLessons(const QString& folder, const QStringList& features, QStringList* errors) {
  std::vector<Lesson> lessons;
  const QDir dir(folder);
  for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile f(dir.filePath(name));
    try {
      if (!f.open(QIODevice::ReadOnly))
        throw LessonError(QStringLiteral("%1: cannot be read").arg(f.fileName()).toStdString());
      Lesson l = parseLesson(f.readAll(), f.fileName());
      bool available = true;
      for (const QString& need : l.requiredFeatures) available &= features.contains(need);
      if (available) lessons.push_back(std::move(l));
    } catch (const LessonError& e) {
      if (errors) *errors << QString::fromStdString(e.what());
    }
  }
  return lessons;
}

QStringList availableFeatures() {
  return {};  // "mesh-walls" arrives with mesh boundaries
}

std::vector<Lesson> builtinLessons(QStringList* errors) {
  return loadLessons(QStringLiteral(":/lessons"), availableFeatures(), errors);
}

QString extractLessonScene(const Lesson& lesson, const QString& cacheFolder, QString* error) {
  const auto failWith = [&](const QString& message) {
    if (error) *error = message;
    return QString();
  };
  QFile scene(QStringLiteral(":/scenes/") + lesson.scene);
  if (!scene.open(QIODevice::ReadOnly))
    return failWith(
        QStringLiteral("%1: the lesson's scene %2 is not in the app").arg(lesson.file, lesson.scene));
  const QByteArray text = scene.readAll();
  const QDir root(cacheFolder);
  if (!root.mkpath(QStringLiteral("scenes")) || !root.mkpath(QStringLiteral("meshes")))
    return failWith(QStringLiteral("%1: cannot create the lesson folder").arg(cacheFolder));
  const auto write = [&](const QString& path, const QByteArray& bytes) {
    QSaveFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size() && out.commit();
  };
  // Meshes the scene names as "../meshes/<file>" (where resources/scenes finds them).
  static const QRegularExpression meshes(QStringLiteral("\"\\.\\./meshes/([^\"/]+)\""));
  for (auto it = meshes.globalMatch(QString::fromUtf8(text)); it.hasNext();) {
    const QString name = it.next().captured(1);
    const QString target = root.filePath(QStringLiteral("meshes/") + name);
    QFile mesh(QStringLiteral(":/meshes/") + name);
    if (!mesh.open(QIODevice::ReadOnly))
      return failWith(
          QStringLiteral("%1: the mesh %2 of %3 is not in the app").arg(lesson.file, name, lesson.scene));
    const QByteArray bytes = mesh.readAll();
    if (QFileInfo(target).size() != bytes.size() && !write(target, bytes))
      return failWith(QStringLiteral("%1: cannot be written").arg(target));
  }
  const QString path = root.filePath(QStringLiteral("scenes/") + lesson.scene);
  if (!write(path, text)) return failWith(QStringLiteral("%1: cannot be written").arg(path));
  return path;
}

}  // namespace clumplab::gui
