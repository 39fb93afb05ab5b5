#pragma once
// Wizard page 2: units (the scale that turns the file's numbers into metres) and repair, with a
// preview of the mesh and its axes and the mesh report. A change reads the mesh again.
#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;

namespace clumplab::gui {
class ScientificSpinBox;
}

namespace clumplab::gui::wizard {

class ClumpPreview;
class JobStatus;
class WizardModel;

class UnitsPage : public QWizardPage {
  Q_OBJECT
 public:
  UnitsPage(WizardModel& model, QWidget* parent = nullptr);

  void initializePage() override;
  bool isComplete() const override;
  // The file's unit: "m", "cm", "mm" or "custom" (with the scale factor).
  void setUnit(const QString& unit, double customScale = 1.0);
  ClumpPreview* preview() const { return preview_; }

 private:
  void apply();
  void showResult();
  double chosenScale() const;

  WizardModel& model_;
  QComboBox* unit_ = nullptr;
  ScientificSpinBox* custom_ = nullptr;
  QCheckBox* repair_ = nullptr;
  QLabel* hint_ = nullptr;
  QLabel* report_ = nullptr;
  ClumpPreview* preview_ = nullptr;
  JobStatus* status_ = nullptr;
};

}  // namespace clumplab::gui::wizard
