#pragma once
// File → Open Recent: the last files opened or saved, newest first, kept in the settings
// ("recentFiles", absolute paths) and shown in a menu whose entries ask to open them. The app's own
// working copies (a lesson's scene unpacked into the cache folder) are never listed.
#include <QObject>
#include <QString>

class QMenu;

namespace clumplab::gui {

class RecentFiles : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMaxFiles = 10;

  // Fills `menu` (owned by the caller) now and whenever the list changes.
  explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);
  // `path` first (moved up if listed); the oldest beyond kMaxFiles go.
  void add(const QString& path);
  // `path` no longer offered (an autosave restored and removed).
  void remove(const QString& path);
  // A copy the app made for itself (under the cache folder): not the user's file to list or reopen.
  static bool isWorkingCopy(const QString& path);

 signals:
  void openRequested(const QString& path);

 private:
  void refresh();
  QMenu* menu_;
};

}  // namespace clumplab::gui
