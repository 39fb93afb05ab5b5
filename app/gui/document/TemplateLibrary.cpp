#include "gui/document/TemplateLibrary.hpp"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>
#include <exception>
#include <map>

#include "core/io/TemplateFile.hpp"
#include "gui/docks/TemplateThumbnail.hpp"

namespace clumplab::gui {

QString userTemplateFolder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath(QStringLiteral("templates"));
}

TemplateLibrary::TemplateLibrary(QString folder) : folder_(std::move(folder)) {}

void TemplateLibrary::setFolder(const QString& folder) {
  if (folder == folder_) return;
  folder_ = folder;
  entries_.clear();
  refresh();
}

const LibraryEntry* TemplateLibrary::find(const QString& path) const {
  for (const LibraryEntry& e : entries_) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

namespace {
LibraryEntry loadEntry(const QFileInfo& file) {
  LibraryEntry e;
  e.path = file.absoluteFilePath();
  e.modified = file.lastModified();
  try {
    e.clump = std::make_shared<const ClumpTemplate>(loadTemplateFile(e.path.toStdString()));
    // Pebbles in a soft blue, as the app draws a body it has not coloured yet.
    e.thumbnail = templateThumbnail(
        *e.clump, QSize(TemplateLibrary::kThumbnailPixels, TemplateLibrary::kThumbnailPixels),
        QColor(96, 150, 222));
  } catch (const std::exception& error) {
    e.error = QString::fromStdString(error.what());
    if (!e.error.contains(file.fileName())) e.error = file.fileName() + QStringLiteral(": ") + e.error;
  }
  return e;
}
}  // namespace

void TemplateLibrary::refresh() {
  std::map<QString, LibraryEntry> known;
  for (LibraryEntry& e : entries_) known.emplace(e.path, std::move(e));
  entries_.clear();
  const QFileInfoList files = QDir(folder_).entryInfoList(
      {QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name | QDir::IgnoreCase);
  for (const QFileInfo& file : files) {
    auto old = known.find(file.absoluteFilePath());
    if (old != known.end() && old->second.modified == file.lastModified()) {
      entries_.push_back(std::move(old->second));  // the same template object: spawns share it
    } else {
      entries_.push_back(loadEntry(file));
    }
  }
}

QString TemplateLibrary::import(const QString& file, QString* error) {
  const QFileInfo source(file);
  const LibraryEntry probe = loadEntry(source);
  if (!probe.clump) {
    if (error) *error = probe.error;
    return {};
  }
  if (!QDir().mkpath(folder_)) {
    if (error) *error = QStringLiteral("%1: cannot create the template folder").arg(folder_);
    return {};
  }
  const QDir dir(folder_);
  QString target = dir.filePath(source.completeBaseName() + QStringLiteral(".json"));
  for (int k = 2; QFileInfo::exists(target); ++k) {
    target = dir.filePath(QStringLiteral("%1-%2.json").arg(source.completeBaseName()).arg(k));
  }
  if (!QFile::copy(file, target)) {
    if (error) *error = QStringLiteral("%1: cannot copy into %2").arg(file, folder_);
    return {};
  }
  refresh();
  return target;
}

}  // namespace clumplab::gui
