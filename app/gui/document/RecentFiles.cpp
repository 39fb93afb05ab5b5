#include "gui/document/RecentFiles.hpp"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace clumplab::gui {

namespace {
constexpr QLatin1String kKey("recentFiles");
}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
  refresh();
}

void RecentFiles::add(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(kKey).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxFiles) files.removeLast();
  settings.setValue(kKey, files);
  refresh();
}

void RecentFiles::remove(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(kKey).toStringList();
  files.removeAll(QFileInfo(path).absoluteFilePath());
  settings.setValue(kKey, files);
  refresh();
}

void RecentFiles::refresh() {
  menu_->clear();
  const QStringList files = QSettings().value(kKey).toStringList();
  for (const QString& f : files) {
    menu_->addAction(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).path(), this,
                     [this, f] { emit openRequested(f); });
  }
  menu_->setEnabled(!files.isEmpty());
}

}  // namespace clumplab::gui
