#pragma once
// Wizard page 5: the template's name, density and file, and copies of it for the running scene
// (how many, where, orientation, velocity and spin), or none. Finish writes the file (atomically)
// and hands the copies to the simulation thread; a failure is shown here and nothing is lost.
#include <QWizardPage>
#include <array>
#include <functional>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"
#include "core/world/BodyInit.hpp"

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace clumplab::sim {
class SimulationLoop;
}

namespace clumplab::gui {
class ScientificSpinBox;
}  // namespace clumplab::gui

namespace clumplab::gui::wizard {

class WizardModel;

class FinishPage : public QWizardPage {
  Q_OBJECT
 public:
  FinishPage(WizardModel& model, sim::SimulationLoop* simulation, QWidget* parent = nullptr);

  void initializePage() override;
  bool validatePage() override;
  QString savedPath() const { return savedPath_; }
  // How Finish adds the copies (the main window: as one undoable edit); unset, straight to the
  // simulation.
  using SpawnCopies = std::function<void(std::vector<BodyInit> bodies, TemplatePtr clump)>;
  void setSpawnCopies(SpawnCopies spawn) { spawnCopies_ = std::move(spawn); }

 signals:
  void templateSaved(const QString& path, int copies);

 private:
  void nameEdited();
  void browse();

  WizardModel& model_;
  sim::SimulationLoop* simulation_ = nullptr;
  SpawnCopies spawnCopies_;
  QLineEdit* name_ = nullptr;
  ScientificSpinBox* density_ = nullptr;
  QLineEdit* path_ = nullptr;
  bool pathEdited_ = false;
  QGroupBox* copies_ = nullptr;
  QSpinBox* count_ = nullptr;
  std::array<ScientificSpinBox*, 3> lower_{}, upper_{}, velocity_{}, spin_{};
  QCheckBox* randomOrientation_ = nullptr;
  QLabel* message_ = nullptr;
  QString savedPath_;
};

}  // namespace clumplab::gui::wizard
