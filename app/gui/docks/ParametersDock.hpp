#pragma once
// The Parameters panel: time step, integrator, gravity, contact model and every parameter of it,
// global damping. Each edit is reported as a new parameter set (MainWindow makes it undoable and
// sends it to the simulation thread); setParameters() shows a set without reporting it.
#include <QDockWidget>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/WorldModel.hpp"
#include "gui/document/MotionChoice.hpp"

class QComboBox;
class QSpinBox;
class QStackedWidget;
class QCheckBox;
class QFormLayout;
class QLabel;
class QVBoxLayout;

namespace clumplab {
struct ModelParameter;  // core/model/ModelParameters.hpp
}  // namespace clumplab

namespace clumplab::gui {

class ScientificSpinBox;

class ParametersDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit ParametersDock(QWidget* parent = nullptr);
  void setParameters(const EditableModel& parameters);
  const EditableModel& parameters() const { return shown_; }
  // Shows the run speed (not a scene parameter: it is not undone or saved) without reporting it.
  void showRunSpeed(double speed, bool asFastAsPossible);
  // The stable and recommended time steps of the running scene, shown as hints [s].
  void setTimeStepHints(double critical, double recommended);
  // Shows the 2D / 3D choice (not a parameter: choosing reopens the scene) and what the scene's
  // file says, without reporting it.
  void showMotion(MotionChoice choice, const QString& sceneFileMotion);

 signals:
  // `what` names the edited parameter ("time step", "gravity z", ...), for the undo history.
  void edited(const clumplab::EditableModel& parameters, const QString& what);
  // The user chose a run speed (simulated seconds per wall second), or as fast as possible.
  void runSpeedChosen(double speed, bool asFastAsPossible);
  // The user chose 3D, a 2D plane or the scene file's motion (MainWindow::setMotion).
  void motionChosen(clumplab::gui::MotionChoice choice);

 private:
  // The panel's groups, top to bottom, and the contact model's pages (in modelPages_ order).
  void addTimeIntegration(QVBoxLayout& layout);
  void addGravity(QVBoxLayout& layout);
  void addMotionAndFields(QVBoxLayout& layout);
  void addContact(QVBoxLayout& layout);
  QWidget* linearPage();
  QWidget* hertzPage();
  QWidget* mindlinPage();
  void addGlobalDamping(QVBoxLayout& layout);
  using Setter = std::function<void(EditableModel&, double)>;
  ScientificSpinBox* addNumber(QFormLayout* form, const QString& label, const QString& unit, double min,
                               double max, bool logarithmic, const QString& what, const QString& tip,
                               Setter setter);
  // A model parameter's field (core/model/ModelParameters.hpp): its limits are the parameter's
  // declared range, its key the box's "modelParameter" property, what it edits the parameter's field.
  ScientificSpinBox* addParameter(QFormLayout* form, const QString& label, const QString& unit,
                                  std::string_view key, bool logarithmic, const QString& what,
                                  const QString& tip);
  // Applies one user edit to the shown parameters and reports it.
  void edit(const QString& what, const std::function<void(EditableModel&)>& change);

  EditableModel shown_;
  bool updating_ = false;
  // The boxes of declared model parameters (addParameter), refreshed through their declarations.
  std::vector<std::pair<const ModelParameter*, ScientificSpinBox*>> parameterBoxes_;
  ScientificSpinBox* timeStep_ = nullptr;
  QLabel* timeStepHint_ = nullptr;
  double hintCritical_ = -1.0, hintRecommended_ = -1.0;  // shown in timeStepHint_ [s]
  bool hintCim_ = false;                                 // the hint shown is the cim integrator's
  QComboBox* runSpeed_ = nullptr;
  QComboBox* integrator_ = nullptr;
  QSpinBox* eulerIterations_ = nullptr;
  ScientificSpinBox* gravity_[3] = {};
  QComboBox* model_ = nullptr;
  QStackedWidget* modelPages_ = nullptr;
  QComboBox* dampingMode_ = nullptr;
  ScientificSpinBox* restitution_ = nullptr;
  ScientificSpinBox* dashpot_ = nullptr;
  QCheckBox* limitDamping_ = nullptr;
  QComboBox* motion_ = nullptr;
  ScientificSpinBox* electric_[3] = {};
  ScientificSpinBox* magnetic_[3] = {};
};

}  // namespace clumplab::gui
