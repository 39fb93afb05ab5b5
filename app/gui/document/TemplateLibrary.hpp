#pragma once
// The user's library of clump templates: the template files ("clumplab-template/1") in one folder,
// each loaded once (again when the file changes) so that every spawn of it shares one template.
// No widgets here: TemplateLibraryDock shows it.
#include <QDateTime>
#include <QImage>
#include <QString>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"

namespace clumplab::gui {

// Where templates are saved by default: <application data>/templates (created on demand).
QString userTemplateFolder();

struct LibraryEntry {
  QString path;
  TemplatePtr clump;  // null when the file could not be read
  QString error;      // why not (names the file)
  QDateTime modified;
  QImage thumbnail;  // empty when `clump` is null
};

class TemplateLibrary {
 public:
  explicit TemplateLibrary(QString folder = userTemplateFolder());

  const QString& folder() const { return folder_; }
  void setFolder(const QString& folder);
  // Reads the folder again: new files are loaded, changed ones reloaded, gone ones dropped.
  // Entries are sorted by file name.
  void refresh();
  const std::vector<LibraryEntry>& entries() const { return entries_; }
  const LibraryEntry* find(const QString& path) const;
  // Copies a template file into the folder (refusing a file that does not load, and never
  // overwriting: "name-2.json" and so on); returns the new path, or "" with `error` set.
  QString import(const QString& file, QString* error);

  static constexpr int kThumbnailPixels = 72;

 private:
  QString folder_;
  std::vector<LibraryEntry> entries_;
};

}  // namespace clumplab::gui
