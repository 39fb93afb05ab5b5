#include "gui/document/DefaultScene.hpp"

#include <QFile>
#include <stdexcept>

#include "resources/Resources.hpp"
#include "shapes/SceneLoading.hpp"

namespace clumplab::gui {

std::shared_ptr<const Scene> defaultScene(const SceneOverrides& overrides) {
  initResources();
  QFile file(QString::fromLatin1(kDefaultScenePath));
  if (!file.open(QIODevice::ReadOnly)) {
    throw std::runtime_error(std::string(kDefaultScenePath) +
                             ": the default scene is missing from the executable");
  }
  const QByteArray text = file.readAll();
  return std::make_shared<const Scene>(
      parseScene(text.toStdString(), kDefaultScenePath, shapes::sceneLoadOptions(overrides)));
}

}  // namespace clumplab::gui
