#include "gui/wizard/ClumpWizard.hpp"

#include "core/io/TemplateFile.hpp"
#include "gui/wizard/FillPage.hpp"
#include "gui/wizard/FinishPage.hpp"
#include "gui/wizard/InertiaPage.hpp"
#include "gui/wizard/MeshSourcePage.hpp"
#include "gui/wizard/UnitsPage.hpp"
#include "gui/wizard/WizardModel.hpp"

namespace clumplab::gui {

using namespace wizard;

ClumpWizard::ClumpWizard(sim::SimulationLoop* simulation, QWidget* parent) : QWizard(parent) {
  setWindowTitle(tr("New clump from mesh"));
  setWizardStyle(QWizard::ModernStyle);
  setOption(QWizard::NoBackButtonOnStartPage);
  setWindowModality(Qt::NonModal);
  model_ = new WizardModel(this);
  meshPage_ = new MeshSourcePage(*model_);
  unitsPage_ = new wizard::UnitsPage(*model_);
  fillPage_ = new wizard::FillPage(*model_);
  inertiaPage_ = new wizard::InertiaPage(*model_);
  finishPage_ = new wizard::FinishPage(*model_, simulation);
  setPage(MeshPage, meshPage_);
  setPage(UnitsPage, unitsPage_);
  setPage(FillPage, fillPage_);
  setPage(InertiaPage, inertiaPage_);
  setPage(FinishPage, finishPage_);
  setStartId(MeshPage);
  connect(finishPage_, &FinishPage::templateSaved, this, &ClumpWizard::templateSaved);
  resize(1040, 700);
}

ClumpWizard::~ClumpWizard() = default;

void ClumpWizard::setContactLaw(const ContactModel& law) {
  model_->contactLaw = law;
}

void ClumpWizard::setMeshFile(const QString& path) {
  restart();
  meshPage_->chooseFile(path);
}

void ClumpWizard::setBuiltinShape(const QString& name) {
  restart();
  meshPage_->chooseShape(name);
}

QString ClumpWizard::loadTemplateFile(const QString& path) {
  ClumpTemplate t;
  try {
    t = clumplab::loadTemplateFile(path.toStdString());
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  if (!t.source) {
    return tr("%1: the template records no \"source\" (mesh, scale, fill), so the wizard cannot remake it; "
              "templates saved by the wizard do.")
        .arg(path);
  }
  const MeshTemplateRequest& s = *t.source;
  if (s.shapeSize > 0.0) {
    return tr("%1: the source gives the built-in shape a \"size\"; the wizard sets sizes by a scale only.")
        .arg(path);
  }
  if (!s.hasFill) return tr("%1: the source has no \"fill\": the wizard remakes grid fills only.").arg(path);
  model_->setFillSettings(s.fill);
  model_->setSamples(s.samples);
  model_->method = inertiaMethodFromKey(s.inertia);
  model_->name = t.name;
  model_->density = s.density > 0.0 ? s.density : t.density;
  model_->templatePath = path;
  restart();
  model_->setMesh({s.meshFile, s.shape}, s.scale, s.repair);
  meshPage_->initializePage();
  return QString();
}

}  // namespace clumplab::gui
