#include "gui/document/ExampleScenes.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace clumplab::gui {

QStringList exampleScenesCandidates() {
  QStringList folders;
  const QString chosen = qEnvironmentVariable("CLUMPLAB_EXAMPLES");
  if (!chosen.isEmpty()) folders << chosen;
  // Installed: PREFIX/bin/clumplab and PREFIX/share/clumplab/scenes (cmake --install, the package).
  folders << QDir(QCoreApplication::applicationDirPath())
                 .absoluteFilePath(QStringLiteral("../share/clumplab/scenes"));
#ifdef CLUMPLAB_SOURCE_SCENES_DIR
  folders << QStringLiteral(CLUMPLAB_SOURCE_SCENES_DIR);  // a build tree's own sources
#endif
  for (QString& f : folders) f = QDir::cleanPath(f);
  return folders;
}

QString exampleScenesFolder() {
  for (const QString& folder : exampleScenesCandidates()) {
    if (QFileInfo(folder).isDir()) return folder;
  }
  return {};
}

QString exampleScenesListing() {
  const QString folder = exampleScenesFolder();
  if (folder.isEmpty()) {
    return QCoreApplication::translate("ExampleScenes", "no example scenes found (looked in %1)\n")
        .arg(exampleScenesCandidates().join(QStringLiteral(", ")));
  }
  QString out = folder + QLatin1Char('\n');
  const QStringList files = QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
  for (const QString& name : files) {
    QFile file(QDir(folder).filePath(name));
    QString description;
    if (file.open(QIODevice::ReadOnly))
      description =
          QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("description")).toString();
    description = description.simplified();
    if (description.size() > 90) description = description.left(89) + QChar(0x2026);  // one line each
    out += QStringLiteral("  %1  %2\n").arg(name, -28).arg(description);
  }
  return out;
}

}  // namespace clumplab::gui
