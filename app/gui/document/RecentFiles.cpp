#include "gui/document/RecentFiles.hpp"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>

namespace clumplab::gui {

namespace {
constexpr QLatin1String kKey("recentFiles");
}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
  refresh();
}

bool RecentFiles::isWorkingCopy(const QString& path) {
  const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  const QString absolute = QFileInfo(path).absoluteFilePath();
  return !cache.isEmpty() && absolute.startsWith(QFileInfo(cache).absoluteFilePath() + QLatin1Char('/'));
}

void RecentFiles::add(const QString& path) {
  if (isWorkingCopy(path)) return;
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
  int shown = 0;
  for (const QString& f : files) {
    if (isWorkingCopy(f)) continue;  // listed by an earlier version
    ++shown;
    menu_->addAction(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).path(), this,
                     [this, f] { emit openRequested(f); });
  }
  menu_->setEnabled(shown > 0);
}

}  // namespace clumplab::gui
