#include "gui/view/ViewChoices.hpp"

namespace clumplab::gui {

namespace {
struct ViewItem {
  const char* name;
  bool render::ViewOptions::*flag;
};
constexpr ViewItem kItems[] = {{"pebbles", &render::ViewOptions::pebbles},
                               {"wireframe", &render::ViewOptions::wireframe},
                               {"mesh", &render::ViewOptions::sourceMesh},
                               {"axes", &render::ViewOptions::bodyAxes},
                               {"velocity", &render::ViewOptions::velocityArrows},
                               {"omega", &render::ViewOptions::angularVelocityArrows},
                               {"L", &render::ViewOptions::angularMomentumArrows},
                               {"trails", &render::ViewOptions::trails},
                               {"contacts", &render::ViewOptions::contactPoints},
                               {"stereo", &render::ViewOptions::stereo}};
}  // namespace

const QStringList& viewItemNames() {
  static const QStringList names = [] {
    QStringList n;
    for (const ViewItem& item : kItems) n << QString::fromLatin1(item.name);
    return n;
  }();
  return names;
}

QString setViewItems(render::ViewOptions& options, const QStringList& items) {
  render::ViewOptions chosen = options;
  for (const ViewItem& item : kItems) chosen.*item.flag = false;
  for (const QString& name : items) {
    const ViewItem* found = nullptr;
    for (const ViewItem& item : kItems) {
      if (name.trimmed().compare(QLatin1String(item.name), Qt::CaseInsensitive) == 0) found = &item;
    }
    if (!found) return name;
    chosen.*found->flag = true;
  }
  options = chosen;
  return QString();
}

bool setColoring(render::ViewOptions& options, const QString& name) {
  const QString c = name.trimmed().toLower();
  if (c == QLatin1String("body")) {
    options.coloring = render::Coloring::PerBody;
  } else if (c == QLatin1String("speed")) {
    options.coloring = render::Coloring::BySpeed;
  } else if (c == QLatin1String("omega")) {
    options.coloring = render::Coloring::ByAngularSpeed;
  } else {
    return false;
  }
  return true;
}

}  // namespace clumplab::gui
