#pragma once
// What the clump wizard's pages share: the user's choices (mesh, scale, fill, inertia samples) and
// the newest result of each computation, with the three jobs that make them off the GUI thread.
// A result is "current" when it was made from the choices as they are now; a page moves on only
// with a current result. Results are immutable and replaced whole, so a cancelled or failed job
// leaves the previous one exactly as it was.
#include <QObject>
#include <memory>

#include "core/collision/ContactModel.hpp"
#include "gui/jobs/BackgroundJob.hpp"
#include "gui/wizard/WizardWork.hpp"

namespace clumplab::gui::wizard {

bool sameFill(const FillSettings& a, const FillSettings& b);

class WizardModel : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDebounceMs = 250;  // quiet time after a control moves before work restarts

  explicit WizardModel(QObject* parent = nullptr);

  // --- choices (each change restarts the work that depends on it) ----------------------------------
  // `delayMs`: wait for the controls to settle (a scale being typed) before reading.
  void setMesh(const MeshChoice& choice, double scale, bool repair, int delayMs = 0);
  const MeshChoice& meshChoice() const { return choice_; }
  double scale() const { return scale_; }
  bool repair() const { return repair_; }
  void setFillSettings(const FillSettings& settings);  // debounced
  const FillSettings& fillSettings() const { return fill_; }
  void setSamples(std::int64_t samples);  // Monte Carlo points (restarts the comparison when shown)
  std::int64_t samples() const { return samples_; }
  // The template's choices (no work depends on them: mass scales with the density).
  InertiaMethod method = InertiaMethod::Mesh;
  std::string name;
  double density = 1000.0;  // [kg/m^3]
  ContactModel contactLaw;  // the running scene's: the fill page's predicted cost in a pile is for it
  QString templatePath;     // "" until chosen: the user templates folder + name

  // --- results ---------------------------------------------------------------------------------
  std::shared_ptr<const ImportedMesh> mesh() const { return mesh_; }
  std::shared_ptr<const FilledClump> clump() const { return clump_; }
  std::shared_ptr<const InertiaComparison> inertia() const { return inertia_; }
  bool meshCurrent() const;
  bool clumpCurrent() const;
  bool inertiaCurrent() const;

  // Start the work whose result is not current (no-ops when it is, or when its input is missing).
  void requestImport(int delayMs = 0);
  void requestFill(int delayMs = 0);
  void requestInertia(int delayMs = 0);

  BackgroundJob& importJob() { return importJob_; }
  BackgroundJob& fillJob() { return fillJob_; }
  BackgroundJob& inertiaJob() { return inertiaJob_; }

 signals:
  void meshChanged();
  void clumpChanged();
  void inertiaChanged();

 private:
  MeshChoice choice_;
  double scale_ = 1.0;
  bool repair_ = false;
  FillSettings fill_;
  std::int64_t samples_ = 200'000;
  std::shared_ptr<const ImportedMesh> mesh_;
  std::shared_ptr<const FilledClump> clump_;
  std::shared_ptr<const InertiaComparison> inertia_;
  BackgroundJob importJob_;
  BackgroundJob fillJob_;
  BackgroundJob inertiaJob_;
};

}  // namespace clumplab::gui::wizard
