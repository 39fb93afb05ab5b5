#pragma once
// Wizard page 3: the regular-grid fill (MClump mode 3): a grid spacing h or a target pebble count,
// and the radius mode, with a live preview of the translucent mesh and its pebbles. Each change
// restarts the fill after the controls settle; Cancel stops it and puts the controls back to the
// fill shown.
#include <QWizardPage>

#include "core/clump/MeshTemplate.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace clumplab::gui {
class ScientificSpinBox;
}

namespace clumplab::gui::wizard {

class ClumpPreview;
class JobStatus;
class WizardModel;

class FillPage : public QWizardPage {
  Q_OBJECT
 public:
  FillPage(WizardModel& model, QWidget* parent = nullptr);

  void initializePage() override;
  bool isComplete() const override;
  ClumpPreview* preview() const { return preview_; }
  JobStatus* status() const { return status_; }

 private:
  void apply();
  void showSettings(const FillSettings& settings);
  void showResult();
  void revertToResult();
  void updateEnabled();

  WizardModel& model_;
  QComboBox* by_ = nullptr;
  QSpinBox* count_ = nullptr;
  ScientificSpinBox* spacing_ = nullptr;
  QComboBox* mode_ = nullptr;
  ScientificSpinBox* radius_ = nullptr;
  ScientificSpinBox* band_ = nullptr;
  ScientificSpinBox* minimum_ = nullptr;
  QLabel* settingsError_ = nullptr;
  QCheckBox* showMesh_ = nullptr;
  ClumpPreview* preview_ = nullptr;
  JobStatus* status_ = nullptr;
};

}  // namespace clumplab::gui::wizard
