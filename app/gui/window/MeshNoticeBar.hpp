#pragma once
// The blue bar above the 3D view after a mesh opened as a clump with notes (what the import did: a
// hole bridged by the winding number, seams welded, pieces turned): the notes where the new clump
// is, and the actions for them, repair first (close the holes and open the mesh again, a choice
// remembered for the file), the clump wizard to study the mesh, or dismissing the bar.
#include <QStringList>

#include "gui/window/NoticeBar.hpp"

class QPushButton;

namespace clumplab::gui {

class MeshNoticeBar : public NoticeBar {
  Q_OBJECT
 public:
  explicit MeshNoticeBar(QWidget* parent = nullptr);

  // `notes` about the mesh `path`; `holesToClose`: its repair would close holes.
  void showNotes(const QString& path, const QStringList& notes, bool holesToClose);

  QPushButton* repairButton() const { return repair_; }
  QPushButton* wizardButton() const { return wizard_; }
  QString message() const;  // the text shown (rich text)

 signals:
  void repairRequested(const QString& path);
  void wizardRequested(const QString& path);

 private:
  QPushButton* repair_ = nullptr;
  QPushButton* wizard_ = nullptr;
  QString path_;
};

}  // namespace clumplab::gui
