#pragma once
// The clump-generation wizard: mesh → units → fill → inertia → finish. Modeless: the
// simulation keeps running and the scene is touched only when Finish adds copies (through
// SimulationLoop::spawn). Heavy work runs on worker threads (WizardModel's jobs).
//
// Entry points for other widgets (the main window, a template library): setMeshFile,
// setBuiltinShape, and loadTemplateFile, which reopens a template made by the wizard from the
// source recorded in it, to refine it.
#include <QWizard>

#include "core/collision/ContactModel.hpp"

namespace clumplab::sim {
class SimulationLoop;
}

namespace clumplab::gui::wizard {
class FillPage;
class FinishPage;
class InertiaPage;
class MeshSourcePage;
class UnitsPage;
class WizardModel;
}  // namespace clumplab::gui::wizard

namespace clumplab::gui {

class ClumpWizard : public QWizard {
  Q_OBJECT
 public:
  enum PageId { MeshPage, UnitsPage, FillPage, InertiaPage, FinishPage };

  // `simulation` receives the copies at Finish; null: the wizard only saves templates.
  explicit ClumpWizard(sim::SimulationLoop* simulation, QWidget* parent = nullptr);
  ~ClumpWizard() override;

  // Starts over on page 1 with this mesh chosen (read at once).
  void setMeshFile(const QString& path);
  void setBuiltinShape(const QString& name);
  // Starts over with every choice taken from the template file's recorded "source" (mesh, scale,
  // repair, fill, inertia method, Monte Carlo samples), its name, density and path. Returns "" or
  // a message naming the file (the wizard is unchanged then).
  QString loadTemplateFile(const QString& path);
  // The contact law the fill page predicts a clump's cost in a pile under (the running scene's).
  void setContactLaw(const ContactModel& law);

  wizard::WizardModel& model() { return *model_; }
  wizard::MeshSourcePage* meshPage() const { return meshPage_; }
  wizard::UnitsPage* unitsPage() const { return unitsPage_; }
  wizard::FillPage* fillPage() const { return fillPage_; }
  wizard::InertiaPage* inertiaPage() const { return inertiaPage_; }
  wizard::FinishPage* finishPage() const { return finishPage_; }

 signals:
  // After Finish wrote the template file (and handed `copies` bodies to the simulation).
  void templateSaved(const QString& path, int copies);

 private:
  wizard::WizardModel* model_ = nullptr;
  wizard::MeshSourcePage* meshPage_ = nullptr;
  wizard::UnitsPage* unitsPage_ = nullptr;
  wizard::FillPage* fillPage_ = nullptr;
  wizard::InertiaPage* inertiaPage_ = nullptr;
  wizard::FinishPage* finishPage_ = nullptr;
};

}  // namespace clumplab::gui
