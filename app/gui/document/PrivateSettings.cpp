#include "gui/document/PrivateSettings.hpp"

#include <QSettings>

namespace clumplab::gui {

PrivateSettings::PrivateSettings() {
  if (!folder_.isValid()) return;  // then the user's settings are read, as in an interactive start
  // Both scopes and formats: a system-wide ClumpLab.conf (/etc/xdg) is not read either.
  for (const QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat}) {
    for (const QSettings::Scope scope : {QSettings::UserScope, QSettings::SystemScope})
      QSettings::setPath(format, scope, folder_.path());
  }
}

}  // namespace clumplab::gui
