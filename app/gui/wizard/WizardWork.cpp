#include "gui/wizard/WizardWork.hpp"

#include "core/world/PileCost.hpp"

#include <filesystem>

#include "shapes/BuiltinShapes.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshTemplateBuilder.hpp"

namespace clumplab::gui::wizard {

std::string MeshChoice::displayName() const {
  if (!shape.empty()) return "built-in " + shape;
  return std::filesystem::path(file).filename().string();
}

std::shared_ptr<const ImportedMesh> importForWizard(const MeshChoice& choice, double scale, bool repair,
                                                    const WorkProgress& progress) {
  if (choice.empty()) throw std::invalid_argument("choose a mesh file or a built-in shape");
  if (!(scale > 0.0)) throw std::invalid_argument("the scale must be positive");
  auto result = std::make_shared<ImportedMesh>();
  result->choice = choice;
  result->scale = scale;
  result->repair = repair;
  shapes::MeshOptions options;
  options.scale = scale;
  options.repair = repair;
  if (!choice.shape.empty()) {
    const shapes::BuiltinShape shape = shapes::makeBuiltinShape(choice.shape);
    result->prepared =
        shapes::prepareMesh(shape.mesh, "built-in shape " + choice.shape, options, progress.silent());
  } else {
    result->prepared = shapes::importMesh(choice.file, options, progress.silent());
  }
  // The solid the mesh bounds (its winding number's for a mesh that is not closed) and its mass
  // properties: exact for a closed mesh, sampled otherwise.
  result->solid = result->prepared.solid;
  result->unitDensity = shapes::preparedMassProperties(result->prepared, 1.0);
  return result;
}

std::shared_ptr<const FilledClump> fillForWizard(std::shared_ptr<const ImportedMesh> mesh,
                                                 const FillSettings& settings, double density,
                                                 const ContactModel& law, const WorkProgress& progress) {
  auto result = std::make_shared<FilledClump>();
  if (settings.spheres) {
    result->sphereFit = shapes::fitSpheres(*mesh->solid, shapes::sphereFitSettings(settings), progress);
    result->fill.pebbles = result->sphereFit.pebbles;
  } else {
    result->fill = shapes::fillMesh(*mesh->solid, settings, 0, 0, progress);
  }
  result->density = density;
  if (!result->fill.pebbles.empty()) {
    try {
      const ClumpTemplate clump =
          makeTemplate("clump", result->fill.pebbles, atDensity(mesh->unitDensity, density), "mesh", density);
      result->pileCost = estimatePileCost(clump, law, kCostPileBodies);
    } catch (const std::exception& e) {
      result->pileCostError = e.what();
    }
  }
  result->mesh = std::move(mesh);
  result->settings = settings;
  return result;
}

const char* inertiaMethodKey(InertiaMethod method) {
  switch (method) {
    case InertiaMethod::Mesh:
      return "mesh";
    case InertiaMethod::Voxel:
      return "voxel";
    case InertiaMethod::MonteCarlo:
      return "monte-carlo";
    case InertiaMethod::Pebbles:
      return "pebbles";
  }
  return "mesh";
}

InertiaMethod inertiaMethodFromKey(const std::string& key) {
  for (InertiaMethod m : kInertiaMethods)
    if (key == inertiaMethodKey(m)) return m;
  return InertiaMethod::Mesh;
}

std::shared_ptr<const InertiaComparison> compareInertia(std::shared_ptr<const FilledClump> clump,
                                                        std::int64_t samples, const WorkProgress& progress) {
  auto result = std::make_shared<InertiaComparison>();
  const std::vector<Pebble>& pebbles = clump->fill.pebbles;
  const ImportedMesh& mesh = *clump->mesh;
  result->samples = samples;
  result->unitDensity[0] = mesh.unitDensity;
  // The voxels of the pebble union come with the metrics (the same density as the mesh's: 1).
  const shapes::QualityResult quality =
      shapes::compareWithMesh(pebbles, *mesh.solid, mesh.unitDensity, {}, progress.part(0.0, 0.6));
  result->metrics = quality.metrics;
  result->unitDensity[1] = quality.clump;
  result->unitDensity[2] = massFromMonteCarlo(pebbles, 1.0, samples, true, progress.part(0.6, 0.99));
  result->unitDensity[3] = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), 1.0));
  for (std::size_t i = 0; i < result->frames.size(); ++i)
    result->frames[i] = principalFrame(result->unitDensity[i].inertiaTensor);
  progress.report(1.0, "done");
  result->clump = std::move(clump);
  return result;
}

MassProperties atDensity(MassProperties m, double density) {
  m.mass *= density;
  m.inertiaTensor *= density;
  m.inertiaTensorError *= density;
  return m;
}

ClumpTemplate wizardTemplate(const InertiaComparison& comparison, InertiaMethod method,
                             const std::string& name, double density, const ContactModel& law) {
  if (!(density > 0.0)) throw std::invalid_argument("the density must be positive");
  const FilledClump& clump = *comparison.clump;
  const ImportedMesh& mesh = *clump.mesh;
  const auto index = static_cast<std::size_t>(method);
  ClumpTemplate t = shapes::meshClumpTemplate(
      name, clump.fill.pebbles, atDensity(comparison.unitDensity[index], density), inertiaMethodKey(method),
      density, *mesh.prepared.mesh,
      mesh.choice.shape.empty() ? mesh.choice.displayName() : "built-in:" + mesh.choice.shape,
      comparison.metrics);
  if (t.metrics) {
    t.metrics->fillMethod = describeFill(clump.settings);
    t.metrics->pileCost = estimatePileCost(t, law);
  }
  auto source = std::make_shared<MeshTemplateRequest>();
  source->name = name;
  source->meshFile = mesh.choice.file;
  source->shape = mesh.choice.shape;
  source->scale = mesh.scale;
  source->density = density;
  source->inertia = inertiaMethodKey(method);
  source->hasFill = true;
  source->fill = clump.settings;
  source->repair = mesh.repair;
  source->samples = comparison.samples;
  source->halton = true;
  t.source = std::move(source);
  return t;
}

}  // namespace clumplab::gui::wizard
