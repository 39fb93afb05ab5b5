// clumplab-cli fill MESH: a clump template from a mesh by regular-grid pebble fill (MClump mode 3)
// or from another tool's pebbles (mode 4), with its metrics against the mesh.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "Commands.hpp"
#include "ShapesJson.hpp"
#include "core/base/Errors.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/io/PebbleFiles.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/PileCost.hpp"
#include "shapes/MeshTemplateBuilder.hpp"
#include "shapes/StlWriter.hpp"

namespace clumplab::cli {

namespace {

// The clump's predicted cost in a pile of `--pile N` bodies (100) under the contact law of the scene
// `--scene FILE` (the engine's default law without one).
PileCost pileCostFor(const ClumpTemplate& clump, const Arguments& args) {
  ContactModel law;
  if (const auto scene = args.text("--scene")) {
    std::ifstream in(*scene);
    if (!in) throw InputError(*scene, "", "cannot be read");
    const nlohmann::json root = nlohmann::json::parse(in, nullptr, false);
    if (root.is_discarded() || !root.is_object()) throw InputError(*scene, "", "is not a JSON object");
    if (!root.contains("contact")) throw InputError(*scene, "", "has no \"contact\" law");
    law = contactFromJson(root["contact"].dump(), *scene);
  }
  const long long bodies = args.integer("--pile").value_or(100);
  if (bodies < 1 || bodies > 100'000'000) throw UsageError("--pile must lie in [1, 1e8]");
  return estimatePileCost(clump, law, static_cast<int>(bodies));
}

// Mode 4: the pebbles another tool made (a pebble text or a MercuryDPM clump folder).
void readGivenPebbles(const Arguments& args, const std::string& pebbles, MeshTemplateRequest& r) {
  for (const char* fillOnly : {"--spacing", "--count", "--radius", "--mode", "--band", "--min-radius"}) {
    if (args.has(fillOnly))
      throw UsageError(std::string(fillOnly) + " does not apply with --pebbles (the pebbles are given)");
  }
  r.pebbles =
      isMercuryClumpFolder(pebbles) ? readMercuryClumpFolder(pebbles).pebbles : readPebbleText(pebbles);
}

// --mode spheres: spheres of varied radii fitted to the shape.
FillSettings sphereFillSettings(const Arguments& args) {
  for (const char* gridOnly : {"--spacing", "--radius", "--band"}) {
    if (args.has(gridOnly))
      throw UsageError(std::string(gridOnly) + " applies to the grid modes, not to --mode spheres");
  }
  const long long count = args.integer("--count").value_or(0);
  if (args.has("--count") && count < 1) throw UsageError("--count must be at least 1");
  const double target = args.number("--target-dice").value_or(0.0);
  if (args.has("--target-dice") && !(target > 0.0 && target <= 1.0))
    throw UsageError("--target-dice must lie in (0, 1]");
  const double protrusion = args.number("--max-protrusion").value_or(-1.0);
  if (args.has("--max-protrusion") && !(protrusion >= 0.0))
    throw UsageError("--max-protrusion must not be negative");
  const double minimum = args.number("--min-radius").value_or(0.0);
  if (args.has("--min-radius") && !(minimum > 0.0)) throw UsageError("--min-radius must be positive");
  const long long maxCount = args.integer("--max-count").value_or(0);
  if (args.has("--max-count") && maxCount < 1) throw UsageError("--max-count must be at least 1");
  try {
    FillSettings fill = makeSphereFillSettings(count, target, protrusion, minimum, maxCount);
    const long long seed = args.integer("--seed").value_or(1);
    if (seed < 0) throw UsageError("--seed must not be negative");
    fill.seed = static_cast<std::uint64_t>(seed);
    return fill;
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// The grid modes (MClump mode 3): a spacing or a count, and how pebbles are made on the grid.
FillSettings gridFillSettings(const Arguments& args) {
  for (const char* spheresOnly : {"--target-dice", "--max-protrusion", "--max-count", "--seed"}) {
    if (args.has(spheresOnly)) throw UsageError(std::string(spheresOnly) + " applies to --mode spheres only");
  }
  const double spacing = args.number("--spacing").value_or(0.0);
  const long long count = args.integer("--count").value_or(0);
  if (args.has("--spacing") && !(spacing > 0.0)) throw UsageError("--spacing must be positive");
  if (args.has("--count") && count < 1) throw UsageError("--count must be at least 1");
  const double radius = args.number("--radius").value_or(0.0);
  if (args.has("--radius") && !(radius > 0.0)) throw UsageError("--radius must be positive");
  const double band = args.number("--band").value_or(0.0),
               minimum = args.number("--min-radius").value_or(0.0);
  if ((args.has("--band") && !(band > 0.0)) || (args.has("--min-radius") && !(minimum > 0.0)))
    throw UsageError("--band and --min-radius must be positive");
  try {
    return makeFillSettings(spacing, count, radius, args.text("--mode").value_or(""), band, minimum);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// What the fill did, for the JSON output.
nlohmann::json fillJson(const MeshTemplateRequest& r, const shapes::MeshTemplateResult& result) {
  if (r.fill.spheres) {
    const shapes::SphereFitResult& f = result.sphereFit;
    nlohmann::json curve = nlohmann::json::array();
    for (const shapes::SphereFitPoint& p : f.curve) curve.push_back({p.count, p.dice});
    nlohmann::json refined = nlohmann::json::array();
    for (const shapes::SphereFitPoint& p : f.refinedCurve) refined.push_back({p.count, p.dice});
    return {{"mode", "spheres"},      {"pebbles", f.pebbles.size()},
            {"stop", f.stopReason},   {"max_protrusion", f.maxProtrusion},
            {"voxel", f.voxelSize},   {"candidates", f.candidates},
            {"dice_by_count", curve}, {"refined_dice_by_count", refined}};
  }
  const shapes::FillResult& f = result.fill;
  return {{"spacing", f.spacing},
          {"radius", f.radius},
          {"fitted", r.fill.fitted},
          {"shell_only", r.fill.shellOnly},
          {"candidates", f.candidates},
          {"inside", f.inside},
          {"dropped_small", f.droppedSmall},
          {"pebbles", f.pebbles.size()}};
}

}  // namespace

nlohmann::json fillResult(const std::vector<std::string>& argv) {
  const Arguments args(
      argv,
      {"--spacing",        "--count",        "--radius",  "--mode",     "--band",          "--min-radius",
       "--density",        "--scale",        "--out",     "--inertia",  "--pebbles",       "--name",
       "--voxels",         "--voxel-budget", "--samples", "--sequence", "--max-triangles", "--target-dice",
       "--max-protrusion", "--max-count",    "--scene",   "--pile",     "--seed"},
      {"--repair"});
  if (args.positional().size() != 1)
    throw UsageError("expected exactly one mesh: clumplab-cli fill MESH --spacing H");
  MeshTemplateRequest r;
  r.meshFile = args.positional()[0];
  r.name = args.text("--name").value_or(std::filesystem::path(r.meshFile).stem().string());
  r.density = args.number("--density").value_or(1000.0);
  if (!(r.density > 0.0)) throw UsageError("--density must be positive");
  const shapes::MeshOptions options = meshOptions(args);
  r.scale = options.scale;
  r.repair = options.repair;
  r.inertia = args.text("--inertia").value_or("mesh");
  if (const auto pebbles = args.text("--pebbles")) {
    readGivenPebbles(args, *pebbles, r);
  } else {
    r.fill =
        args.text("--mode").value_or("") == "spheres" ? sphereFillSettings(args) : gridFillSettings(args);
    r.hasFill = true;
  }
  const Sampling sampling = samplingOptions(args);
  r.voxels = sampling.voxels;
  r.voxelBudget = sampling.budget;
  r.samples = sampling.samples;
  r.halton = sampling.halton;

  shapes::MeshTemplateResult result;
  try {
    result = shapes::buildMeshTemplate(r, options);
  } catch (const std::invalid_argument& e) {
    throw InputError(r.meshFile, "", e.what());
  }
  printWarnings(result.report);
  if (result.clump.metrics) result.clump.metrics->pileCost = pileCostFor(result.clump, args);
  nlohmann::json out = nlohmann::json::parse(templateToJson(result.clump));
  if (r.hasFill) out["fill"] = fillJson(r, result);
  out["mesh_report"] = meshReportJson(result.report);
  if (const auto path = args.text("--out")) {
    try {
      writeFileAtomically(*path, out.dump(1) + "\n");
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());  // names the path: an output the user asked for cannot be written
    }
  }
  return out;
}

int fillCommand(const std::vector<std::string>& argv) {
  std::cout << fillResult(argv).dump(1) << std::endl;
  return 0;
}

int meshCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--scale", "--max-triangles"}, {"--repair"});
  if (args.positional().size() != 1) throw UsageError("expected exactly one mesh: clumplab-cli mesh MESH");
  const shapes::PreparedMesh prepared = shapes::importMesh(args.positional()[0], meshOptions(args));
  printWarnings(prepared.report);
  std::cout << meshReportJson(prepared.report).dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
