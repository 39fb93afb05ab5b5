#pragma once
// Wizard page 3: the fill. The regular grid (MClump mode 3): a grid spacing h or a target pebble
// count, and the radius mode; or spheres of varied radii fitted to the shape (mode spheres): a target
// Dice coefficient with a largest count, or a count, the largest protrusion and the smallest radius,
// with the curve of Dice against count (a click picks a count). A live preview of the translucent
// mesh and its pebbles, and the clump's predicted cost in a pile under the scene's contact law.
// Each change restarts the fill after the controls settle; Cancel stops it and puts the controls
// back to the fill shown.
#include <QWizardPage>
#include <tuple>

#include "core/clump/MeshTemplate.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QVBoxLayout;

namespace clumplab::gui {
class ScientificSpinBox;
}

namespace clumplab::gui::wizard {

class ClumpPreview;
class FillCurveChart;
class JobStatus;
class WizardModel;
struct FilledClump;

class FillPage : public QWizardPage {
  Q_OBJECT
 public:
  FillPage(WizardModel& model, QWidget* parent = nullptr);

  void initializePage() override;
  bool isComplete() const override;
  ClumpPreview* preview() const { return preview_; }
  JobStatus* status() const { return status_; }
  FillCurveChart* curve() const { return curve_; }
  QLabel* costLabel() const { return cost_; }

 private:
  void addTargetRows(QFormLayout& form);
  void addPebbleRows(QFormLayout& form);
  void addResultWidgets(QVBoxLayout& left);
  void connectControls();
  void apply();
  void showSettings(const FillSettings& settings);
  void showResult();
  void revertToResult();
  void updateEnabled();
  void pickCount(int count);
  double meshSize() const;  // [m] the mesh's largest extent, 0 without a mesh
  QString costText(const FilledClump& clump) const;

  WizardModel& model_;
  QComboBox* by_ = nullptr;
  QSpinBox* count_ = nullptr;
  ScientificSpinBox* spacing_ = nullptr;
  QComboBox* mode_ = nullptr;
  ScientificSpinBox* radius_ = nullptr;
  ScientificSpinBox* band_ = nullptr;
  ScientificSpinBox* minimum_ = nullptr;
  QDoubleSpinBox* dice_ = nullptr;
  QSpinBox* largest_ = nullptr;
  QDoubleSpinBox* protrusion_ = nullptr;  // [% of the mesh's size]
  QCheckBox* limitRadius_ = nullptr;      // mode spheres: the smallest radius applies
  QString lastMode_;                      // the mode shown before the last change
  std::tuple<const void*, double, double> curveKey_{nullptr, 0.0, 0.0};  // the curve's mesh and limits
  QLabel* settingsError_ = nullptr;
  QCheckBox* showMesh_ = nullptr;
  ClumpPreview* preview_ = nullptr;
  JobStatus* status_ = nullptr;
  FillCurveChart* curve_ = nullptr;
  QLabel* cost_ = nullptr;
};

}  // namespace clumplab::gui::wizard
