#include "gui/wizard/WizardModel.hpp"

namespace clumplab::gui::wizard {

bool sameFill(const FillSettings& a, const FillSettings& b) {
  return a == b;
}

WizardModel::WizardModel(QObject* parent)
    : QObject(parent), importJob_(this), fillJob_(this), inertiaJob_(this) {
  fill_.targetCount = 300;
}

void WizardModel::setMesh(const MeshChoice& choice, double scale, bool repair, int delayMs) {
  if (choice == choice_ && scale == scale_ && repair == repair_) return;
  choice_ = choice;
  scale_ = scale;
  repair_ = repair;
  requestImport(delayMs);
}

void WizardModel::setFillSettings(const FillSettings& settings) {
  if (sameFill(settings, fill_)) return;
  fill_ = settings;
  requestFill(kDebounceMs);
}

void WizardModel::setSamples(std::int64_t samples) {
  samples_ = samples;
}

bool WizardModel::meshCurrent() const {
  return mesh_ && mesh_->choice == choice_ && mesh_->scale == scale_ && mesh_->repair == repair_;
}

bool WizardModel::clumpCurrent() const {
  return meshCurrent() && clump_ && clump_->mesh == mesh_ && sameFill(clump_->settings, fill_);
}

bool WizardModel::inertiaCurrent() const {
  return clumpCurrent() && inertia_ && inertia_->clump == clump_ && inertia_->samples == samples_;
}

void WizardModel::requestImport(int delayMs) {
  if (choice_.empty()) return;
  if (meshCurrent()) {
    importJob_.cancel();  // back to what is shown: nothing to do
    return;
  }
  importJob_.start(
      [this, choice = choice_, scale = scale_, repair = repair_](const WorkProgress& progress) {
        progress.report(0.0, "reading");
        auto mesh = importForWizard(choice, scale, repair, progress);
        progress.report(1.0, "read");
        return [this, mesh] {
          mesh_ = mesh;
          emit meshChanged();
        };
      },
      delayMs);
}

void WizardModel::requestFill(int delayMs) {
  if (!meshCurrent()) return;
  if (clumpCurrent()) {
    fillJob_.cancel();
    return;
  }
  fillJob_.start(
      [this, mesh = mesh_, settings = fill_, density = density,
       law = contactLaw](const WorkProgress& progress) {
        auto clump = fillForWizard(mesh, settings, density, law, progress);
        return [this, clump] {
          clump_ = clump;
          emit clumpChanged();
        };
      },
      delayMs);
}

void WizardModel::requestInertia(int delayMs) {
  if (!clumpCurrent()) return;
  if (inertiaCurrent()) {
    inertiaJob_.cancel();
    return;
  }
  inertiaJob_.start(
      [this, clump = clump_, samples = samples_](const WorkProgress& progress) {
        auto comparison = compareInertia(clump, samples, progress);
        return [this, comparison] {
          inertia_ = comparison;
          emit inertiaChanged();
        };
      },
      delayMs);
}

}  // namespace clumplab::gui::wizard
