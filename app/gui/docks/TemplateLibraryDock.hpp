#pragma once
// The template library panel: saved templates with a thumbnail, pebble count and mass. Drag one
// into the 3D view to spawn it where it is dropped, double-click to spawn it at the centre of the
// view, or open it in the clump wizard again to refine it. The folder is watched, so templates
// the wizard saves appear at once.
#include <QDockWidget>
#include <QFileSystemWatcher>
#include <QTimer>

#include "gui/document/TemplateLibrary.hpp"

class QLabel;
class QListWidget;
class QListWidgetItem;

namespace clumplab::gui {

// The drag's payload: the template file's path (UTF-8).
inline constexpr const char* kTemplateMimeType = "application/x-clumplab-template";

class TemplateLibraryDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit TemplateLibraryDock(QWidget* parent = nullptr);

  TemplateLibrary& library() { return library_; }
  void setFolder(const QString& folder);
  void refresh();
  QListWidget* list() const { return list_; }

 signals:
  // Spawn the template at the centre of the 3D view.
  void spawnRequested(const QString& path);
  // Open the template in the clump wizard.
  void refineRequested(const QString& path);

 private:
  void importFiles();
  void showMenu(const QPoint& at);
  QString pathOf(const QListWidgetItem* item) const;

  TemplateLibrary library_;
  QListWidget* list_ = nullptr;
  QLabel* empty_ = nullptr;
  QFileSystemWatcher watcher_;
  QTimer rescan_;  // coalesces the watcher's bursts of changes
};

}  // namespace clumplab::gui
