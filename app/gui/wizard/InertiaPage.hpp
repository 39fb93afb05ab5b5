#pragma once
// Wizard page 4: how the clump gets its mass properties (mesh exact, voxels, Monte Carlo or the
// pebble sum), with every method side by side (mass, centre, principal moments, axis angle
// against the mesh, Dzhanibekov margin) and the errors against the mesh that pass the limits in red.
#include <QWizardPage>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace clumplab {
struct MassProperties;  // MassProperties.hpp
}  // namespace clumplab

namespace clumplab::gui::wizard {

struct InertiaComparison;  // WizardWork.hpp
class JobStatus;
class WizardModel;

class InertiaPage : public QWizardPage {
  Q_OBJECT
 public:
  InertiaPage(WizardModel& model, QWidget* parent = nullptr);

  void initializePage() override;
  bool isComplete() const override;
  QTableWidget* table() const { return table_; }

  enum Row { Volume, Mass, CentreX, CentreY, CentreZ, I1, I2, I3, AxisAngle, Margin, RowCount };

 private:
  void showResult();
  // Column c of the table: method c's figures against the mesh's (`mesh`, column 0's at the density);
  // `chosen` is highlighted.
  void showMethodColumn(const InertiaComparison& result, const MassProperties& mesh, int c, int chosen);
  QString summaryText(const InertiaComparison& result) const;

  WizardModel& model_;
  QComboBox* method_ = nullptr;
  QSpinBox* samples_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* summary_ = nullptr;
  JobStatus* status_ = nullptr;
};

}  // namespace clumplab::gui::wizard
