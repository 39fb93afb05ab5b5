#include "gui/document/MeshRepairChoice.hpp"

#include <QFileInfo>
#include <QSettings>
#include <QStringList>

namespace clumplab::gui {

namespace {
const QString kRepairedMeshesKey = QStringLiteral("meshes/repaired");
constexpr int kMaxRemembered = 64;  // the most recent choices; older files go back to no repair

QString settingsEntry(const QString& meshPath) {
  return QFileInfo(meshPath).absoluteFilePath();
}
}  // namespace

bool repairChosenFor(const QString& meshPath) {
  return !meshPath.isEmpty() &&
         QSettings().value(kRepairedMeshesKey).toStringList().contains(settingsEntry(meshPath));
}

void rememberRepairChoice(const QString& meshPath, bool repair) {
  if (meshPath.isEmpty()) return;
  QStringList files = QSettings().value(kRepairedMeshesKey).toStringList();
  files.removeAll(settingsEntry(meshPath));
  if (repair) files.prepend(settingsEntry(meshPath));
  while (files.size() > kMaxRemembered) files.removeLast();
  QSettings().setValue(kRepairedMeshesKey, files);
}

}  // namespace clumplab::gui
