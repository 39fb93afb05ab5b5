#pragma once
// Wizard page 1: the mesh, from a file (typed, browsed, dropped on the page or picked from the
// recent ones) or a built-in shape. The choice is read at once (off the GUI thread) and its
// problems shown on the page naming the file; Next waits for a mesh that reads. A mesh with holes
// offers their repair here (remembered per file: MeshRepairChoice).
#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;

namespace clumplab::gui::wizard {

class JobStatus;
class WizardModel;

class MeshSourcePage : public QWizardPage {
  Q_OBJECT
 public:
  MeshSourcePage(WizardModel& model, QWidget* parent = nullptr);

  void chooseFile(const QString& path);
  void chooseShape(const QString& name);
  bool isComplete() const override;
  void initializePage() override;
  JobStatus* status() const { return status_; }

  static QStringList recentMeshes();
  static void addRecentMesh(const QString& path);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void browse();
  void showResult();
  void fillRecent();

  WizardModel& model_;
  QLineEdit* path_ = nullptr;
  QComboBox* shape_ = nullptr;
  QListWidget* recent_ = nullptr;
  JobStatus* status_ = nullptr;
  QCheckBox* closeHoles_ = nullptr;
};

}  // namespace clumplab::gui::wizard
