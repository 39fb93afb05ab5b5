#include "SceneTemplates.hpp"

#include "core/base/ResourceLimits.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "PointKeys.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/io/PebbleFiles.hpp"
#include "core/io/TemplateFile.hpp"

namespace clumplab::scene_detail {

using json_reader::Node;

std::string resolvePath(const std::string& sceneFile, const std::string& relative) {
  const std::filesystem::path p(relative);
  if (p.is_absolute()) return relative;
  return (std::filesystem::path(sceneFile).parent_path() / p).lexically_normal().string();
}

namespace {

constexpr std::size_t kCapsuleRow = 8;  // [x, y, z, r, ux, uy, uz, half_length]

// Pebbles [[x, y, z, r], ...] or [[x, y, z, r, density], ...]; with `capsules` (the principal form,
// whose mass properties are given) also spherocylinder pebbles [x, y, z, r, ux, uy, uz, h]: shaft
// along the unit vector u, half shaft length h >= 0.
void readPebbles(const Node& node, std::vector<Pebble>& pebbles, std::vector<double>& densities,
                 bool capsules = false) {
  if (node.arraySize() == 0) node.fail("a clump needs at least one pebble");
  for (std::size_t i = 0; i < node.arraySize(); ++i) {
    const Node row = node.element(i);
    const std::size_t n = row.arraySize();
    if (n == kCapsuleRow && !capsules) {
      row.fail(
          "spherocylinder pebbles [x, y, z, r, ux, uy, uz, h] have no pebble-sum inertia: they belong to "
          "the principal form (\"inertia\": \"principal\"); make a spherocylinder with {\"shape\": "
          "\"spherocylinder\", \"radius\": r, \"length\": l, \"density\": d}");
    }
    if (n != 4 && n != 5 && n != kCapsuleRow) row.fail("expected [x, y, z, r] or [x, y, z, r, density]");
    Pebble p;
    p.center = Vec3(row.element(0).number(), row.element(1).number(), row.element(2).number());
    p.radius = row.element(3).positive();
    if (n == kCapsuleRow) {
      p.axis = Vec3(row.element(4).number(), row.element(5).number(), row.element(6).number());
      if (!(std::abs(p.axis.norm() - 1.0) <= 1e-12))
        row.fail("the shaft axis [ux, uy, uz] must be a unit vector");
      p.halfLength = row.element(7).nonNegative();
    }
    pebbles.push_back(p);
    densities.push_back(n == 5 ? row.element(4).positive() : -1.0);
  }
}

// {"shape": "spherocylinder", "radius": r, "length": l, "density": d} (Meland et al., Cluster integration
// method): r > 0 [m], shaft length l >= 0 [m], density [kg/m^3]; mass and moments in closed form.
TemplatePtr readSpherocylinderTemplate(const std::string& name, const Node& node) {
  node.allowOnly(withPointKeys({"shape", "radius", "length", "density", "description"}));
  const double radius = node.positive("radius");
  const double length = node.child("length").nonNegative();
  const double density = node.positive("density");
  return std::make_shared<const ClumpTemplate>(makeSpherocylinderTemplate(name, radius, length, density));
}

// "pebbles": [[x, y, z, r(, density)], ...], or a file: `x y z r` text or a MercuryDPM clump folder.
void readPebbleField(const Node& node, std::vector<Pebble>& pebbles, std::vector<double>& densities) {
  if (!node.json().is_string()) {
    readPebbles(node, pebbles, densities);
    return;
  }
  const std::string path = resolvePath(node.file(), node.string());
  pebbles = isMercuryClumpFolder(path) ? readMercuryClumpFolder(path).pebbles : readPebbleText(path);
  densities.assign(pebbles.size(), -1.0);
}

void readFill(const Node& node, FillSettings& fill) {
  node.allowOnly({"spacing", "count", "radius", "mode", "band", "min_radius", "target_dice", "max_protrusion",
                  "max_count", "seed"});
  const long long count = node.integerOr("count", 0);
  if (node.has("count") && count < 1) node.child("count").fail("the pebble count must be at least 1");
  const std::string mode = node.stringOr("mode", "");
  try {
    if (mode == "spheres") {
      for (const char* gridOnly : {"spacing", "radius", "band"}) {
        if (node.has(gridOnly))
          node.child(gridOnly).fail(std::string(gridOnly) +
                                    " applies to the grid modes, not to mode spheres");
      }
      const double maxProtrusion =
          node.has("max_protrusion") ? node.child("max_protrusion").nonNegative() : -1.0;
      const long long maxCount = node.integerOr("max_count", 0);
      if (node.has("max_count") && maxCount < 1)
        node.child("max_count").fail("the largest count must be at least 1");
      fill = makeSphereFillSettings(count, node.positiveOr("target_dice", 0.0), maxProtrusion,
                                    node.positiveOr("min_radius", 0.0), maxCount);
      const long long seed = node.integerOr("seed", 1);
      if (seed < 0) node.child("seed").fail("the seed must not be negative");
      fill.seed = static_cast<std::uint64_t>(seed);
      return;
    }
    for (const char* spheresOnly : {"target_dice", "max_protrusion", "max_count", "seed"}) {
      if (node.has(spheresOnly))
        node.child(spheresOnly).fail(std::string(spheresOnly) + " applies to mode spheres only");
    }
    fill = makeFillSettings(node.positiveOr("spacing", 0.0), count, node.positiveOr("radius", 0.0), mode,
                            node.positiveOr("band", 0.0), node.positiveOr("min_radius", 0.0));
  } catch (const std::invalid_argument& e) {
    node.fail(e.what());
  }
}

// Sampled-method options shared by pebble and mesh templates.
void readSampling(const Node& node, int& voxels, std::int64_t& samples, bool& halton) {
  const long long n = node.integerOr("voxels", voxels);
  if (n != 0 && (n < 4 || n > 2048)) node.child("voxels").fail("voxels per side must lie in [4, 2048]");
  voxels = static_cast<int>(n);
  const long long s = node.integerOr("samples", samples);
  if (s < 1000) node.child("samples").fail("use at least 1000 samples");
  // Voxel rows are summed in closed form (~N^2 work), samples one by one: both are points tested.
  const auto limit = static_cast<long long>(resourceLimits().maxFillPoints);
  if (s > limit) {
    (node.has("samples") ? node.child("samples") : node)
        .failLimit(std::to_string(s) + " samples exceed the limit of " + std::to_string(limit) + " points",
                   "fill-points", static_cast<std::uint64_t>(s));
  }
  samples = s;
  const std::string sequence = node.stringOr("sequence", "halton");
  if (sequence != "halton" && sequence != "sine") {
    node.child("sequence")
        .fail("unknown sequence \"" + sequence +
              "\" (use \"halton\" or \"sine\", Mutze, Polyspherical grains, eq. 30)");
  }
  halton = sequence == "halton";
}

}  // namespace

MeshTemplateRequest readMeshTemplateRequest(const std::string& name, const Node& node,
                                            const std::string& method) {
  const bool builtin = node.has("shape");
  if (builtin && node.has("mesh"))
    node.child("shape").fail("give either \"mesh\" (a file) or \"shape\" (built in)");
  const Node meshNode = node.child(builtin ? "shape" : "mesh");
  MeshTemplateRequest r;
  r.name = name;
  if (builtin) {
    r.shape = meshNode.string();
    r.shapeSize = node.positiveOr("size", 0.0);
  } else {
    if (node.has("size"))
      node.child("size").fail("\"size\" applies to built-in shapes; a mesh has \"scale\"");
    r.meshFile = resolvePath(node.file(), meshNode.string());
  }
  r.scale = node.positiveOr("scale", 1.0);
  r.density = node.positive("density");
  r.inertia = method;
  if (method != "mesh" && method != "voxel" && method != "monte-carlo" && method != "pebbles") {
    node.child("inertia").fail("unknown inertia method \"" + method +
                               "\" for a mesh template (use mesh, voxel, monte-carlo or pebbles)");
  }
  if (node.has("fill")) {
    r.hasFill = true;
    readFill(node.child("fill"), r.fill);
  }
  if (node.has("pebbles")) {
    if (r.hasFill) node.child("pebbles").fail("give either \"fill\" or \"pebbles\", not both");
    std::vector<double> densities;
    readPebbleField(node.child("pebbles"), r.pebbles, densities);
    if (std::any_of(densities.begin(), densities.end(), [](double d) { return d > 0.0; }))
      node.child("pebbles").fail("a mesh template has one density: give pebbles as [x, y, z, r]");
  }
  if (!r.hasFill && r.pebbles.empty() && !builtin) {
    node.fail(
        "a mesh template needs \"fill\" (pebbles on a regular grid) or \"pebbles\" (made by another tool)");
  }
  if (node.has("repair")) r.repair = node.child("repair").boolean();
  if (node.has("voxel_budget")) r.voxelBudget = node.child("voxel_budget").positive();
  readSampling(node, r.voxels, r.samples, r.halton);
  return r;
}

namespace {

TemplatePtr readMeshTemplate(const std::string& name, const Node& node, const SceneLoadOptions& options,
                             const std::string& method) {
  const Node meshNode = node.child(node.has("shape") ? "shape" : "mesh");
  if (!options.meshTemplates) {
    meshNode.fail("mesh templates need the shapes library, which this program was built without");
  }
  const MeshTemplateRequest r = readMeshTemplateRequest(name, node, method);
  try {
    return std::make_shared<const ClumpTemplate>(options.meshTemplates(r));
  } catch (const std::exception& e) {
    meshNode.fail(e.what());
  }
}

// A template file: clumplab-template/1 JSON, or a MercuryDPM clump folder.
TemplatePtr readTemplateFile(const std::string& name, const Node& node) {
  const Node fileNode = node.child("file");
  const std::string path = resolvePath(node.file(), fileNode.string());
  if (!isMercuryClumpFolder(path)) {
    ClumpTemplate t = loadTemplateFile(path);
    t.name = name;
    return std::make_shared<const ClumpTemplate>(std::move(t));
  }
  const MercuryClump c = readMercuryClumpFolder(path);
  MassProperties mass;
  std::string method = "given";
  double density = node.positiveOr("density", 0.0);
  if (c.mass) {
    // MClump computes mass and tensor at density 1 by default; a density given here multiplies them.
    mass = mercuryMassProperties(c, density > 0.0 ? density : 1.0);
  } else {
    if (!(density > 0.0)) node.child("density");  // reports "missing required field"
    mass = massFromPebbles(c.pebbles, std::vector<double>(c.pebbles.size(), density));
    method = "pebbles";
  }
  try {
    return std::make_shared<const ClumpTemplate>(makeTemplate(name, c.pebbles, mass, method, density));
  } catch (const std::exception& e) {
    fileNode.fail(e.what());
  }
}

void allowTemplateKeys(const Node& node) {
  node.allowOnly(withPointKeys({"density", "inertia", "pebbles", "mass", "center_of_mass", "inertia_tensor",
                                "voxels", "samples", "sequence", "mesh", "scale", "fill", "file",
                                "description", "repair", "voxel_budget", "shape", "size"}));
}

void requireMeshSource(const Node& src) {
  allowTemplateKeys(src);
  if (src.has("file") || !(src.has("mesh") || src.has("shape"))) {
    src.fail("a source is a mesh or built-in shape template (with \"mesh\" or \"shape\")");
  }
}

// A principal-form template's "source": the mesh or built-in shape template it was made from. It
// names the source; with a mesh builder it also brings the mesh (for drawing) and its metrics.
void attachSource(ClumpTemplate& t, const Node& node, const SceneLoadOptions& options,
                  TemplateSource& source) {
  const Node src = node.child("source");
  requireMeshSource(src);
  const double scale = node.positiveOr("source_scale", 1.0);
  source = {src.json().dump(), src.file(), scale};
  t.sourceMesh = src.has("shape") ? "built-in:" + src.child("shape").string()
                                  : std::filesystem::path(src.child("mesh").string()).filename().string();
  if (!options.meshTemplates) return;  // the physics needs no mesh
  TemplatePtr built = readMeshTemplate(t.name, src, options, src.stringOr("inertia", "mesh"));
  if (scale != 1.0) built = std::make_shared<const ClumpTemplate>(scaledTemplate(*built, scale));
  // The mesh is drawn in the principal frame of the template it built: that must be this one.
  bool same = built->pebbles.size() == t.pebbles.size();
  for (std::size_t i = 0; same && i < t.pebbles.size(); ++i) {
    same = (built->pebbles[i].center - t.pebbles[i].center).norm() <= 1e-9 * t.boundingRadius &&
           std::abs(built->pebbles[i].radius - t.pebbles[i].radius) <= 1e-9 * t.boundingRadius;
  }
  if (!same) {
    src.fail(
        "builds a different clump from the saved pebbles (did the mesh change since the scene was "
        "saved?); remove \"source\" to load the clump without its mesh");
  }
  t.mesh = built->mesh;
  t.metrics = built->metrics;
  t.sourceMesh = built->sourceMesh;
}

// The principal form: pebbles in the principal frame with mass and principal moments, taken as
// they are (no principal-axis computation), so a saved template reloads to the bit.
TemplatePtr readPrincipalTemplate(const std::string& name, const Node& node, const SceneLoadOptions& options,
                                  TemplateSource& source) {
  node.allowOnly(withPointKeys({"inertia", "mass", "principal_moments", "pebbles", "density", "volume",
                                "inertia_method", "source", "source_scale", "description"}));
  ClumpTemplate t;
  t.name = name;
  t.mass = node.positive("mass");
  const Node moments = node.child("principal_moments");
  t.principalMoments = moments.vec3();
  const Vec3& m = t.principalMoments;
  if (!(m.minCoeff() > 0.0)) moments.fail("principal moments must be positive");
  if (m[0] > m[1] || m[1] > m[2]) moments.fail("principal moments must be ascending (I1 <= I2 <= I3)");
  if (m[0] + m[1] < m[2] * (1.0 - 1e-9)) {
    moments.fail("the principal moments violate the triangle inequality I1 + I2 >= I3: no body has them");
  }
  t.density = node.positiveOr("density", 0.0);
  t.volume = node.positiveOr("volume", t.density > 0.0 ? t.mass / t.density : 0.0);
  t.inertiaMethod = node.stringOr("inertia_method", "principal");
  const Node pebbles = node.child("pebbles");
  std::vector<double> densities;
  readPebbles(pebbles, t.pebbles, densities, true);
  if (std::any_of(densities.begin(), densities.end(), [](double d) { return d > 0.0; }))
    pebbles.fail("a principal template has no per-pebble densities: give pebbles as [x, y, z, r]");
  t.minPebbleRadius = t.pebbles.front().radius;
  for (const Pebble& p : t.pebbles) {  // as makeTemplate does (Mutze, Polyspherical grains, eq. 32)
    t.boundingRadius = std::max(t.boundingRadius, p.center.norm() + p.reach());
    t.minPebbleRadius = std::min(t.minPebbleRadius, p.radius);
  }
  if (node.has("source")) {
    attachSource(t, node, options, source);
  } else if (node.has("source_scale")) {
    node.child("source_scale").fail("applies with a \"source\" only");
  }
  return std::make_shared<const ClumpTemplate>(std::move(t));
}

}  // namespace

MeshTemplateRequest readMeshSource(const std::string& name, const Node& node) {
  requireMeshSource(node);
  return readMeshTemplateRequest(name, node, node.stringOr("inertia", "mesh"));
}

namespace {
TemplatePtr readTemplateShape(const std::string& name, const Node& node, const SceneLoadOptions& options,
                              TemplateSource& source);
}  // namespace

// Any template form with the point properties its bodies carry by default.
TemplatePtr readTemplate(const std::string& name, const Node& node, const SceneLoadOptions& options,
                         TemplateSource& source) {
  TemplatePtr t = readTemplateShape(name, node, options, source);
  if (!hasPointKeys(node)) return t;
  auto withPoint = std::make_shared<ClumpTemplate>(*t);
  withPoint->point = readPointProperties(node, t->rotationFromInput, t->point);
  return withPoint;
}

namespace {
TemplatePtr readTemplateShape(const std::string& name, const Node& node, const SceneLoadOptions& options,
                              TemplateSource& source) {
  source = TemplateSource{};
  if (node.has("shape") && node.child("shape").json().is_string() &&
      node.child("shape").string() == kSpherocylinderShape) {
    return readSpherocylinderTemplate(name, node);
  }
  if (node.has("inertia") && node.child("inertia").json().is_string() &&
      node.child("inertia").string() == "principal") {
    return readPrincipalTemplate(name, node, options, source);
  }
  allowTemplateKeys(node);
  if (node.has("file")) return readTemplateFile(name, node);
  const bool meshBased = node.has("mesh") || node.has("shape");
  const std::string method = node.stringOr("inertia", meshBased ? "mesh" : "pebbles");
  if (meshBased) {
    source = {node.json().dump(), node.file(), 1.0};
    return readMeshTemplate(name, node, options, method);
  }
  if (method == "mesh") node.child("inertia").fail("inertia \"mesh\" needs a \"mesh\" file");
  for (const char* meshOnly : {"scale", "fill", "repair", "size"}) {
    if (node.has(meshOnly)) node.child(meshOnly).fail("applies to mesh templates only (add \"mesh\")");
  }
  std::vector<Pebble> pebbles;
  std::vector<double> densities;
  readPebbleField(node.child("pebbles"), pebbles, densities);
  const bool perPebble = std::any_of(densities.begin(), densities.end(), [](double d) { return d > 0.0; });
  const bool allPerPebble = std::all_of(densities.begin(), densities.end(), [](double d) { return d > 0.0; });
  if (perPebble && !allPerPebble) node.child("pebbles").fail("give a density for every pebble or for none");
  if (perPebble && method != "pebbles") {
    node.child("pebbles").fail("per-pebble densities need \"inertia\": \"pebbles\"");
  }
  double density = 0.0;
  if (node.has("density")) density = node.child("density").positive();
  MassProperties mass;
  if (method == "given") {
    mass.mass = node.child("mass").positive();
    mass.centerOfMass = node.child("center_of_mass").vec3();
    mass.inertiaTensor = node.child("inertia_tensor").matrix3();
    const Node tensorNode = node.child("inertia_tensor");
    if (!mass.inertiaTensor.isApprox(mass.inertiaTensor.transpose(), 1e-9))
      tensorNode.fail("the inertia tensor must be symmetric");
    const PrincipalFrame f = principalFrame(mass.inertiaTensor);
    if (!(f.moments[0] > 0.0)) tensorNode.fail("the inertia tensor must be positive definite");
    if (f.moments[0] + f.moments[1] < f.moments[2] * (1.0 - 1e-9)) {
      tensorNode.fail(
          "the principal moments violate the triangle inequality I1 + I2 >= I3: no body has them");
    }
    mass.volume = density > 0.0 ? mass.mass / density : 0.0;
  } else {
    if (!perPebble && density <= 0.0) node.child("density");  // reports "missing required field"
    int voxels = 128;
    std::int64_t samples = 1000000;
    bool halton = true;
    readSampling(node, voxels, samples, halton);
    if (perPebble) {
      mass = massFromPebbles(pebbles, densities);
      density = mass.mass / mass.volume;
    } else if (method == "pebbles") {
      mass = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), density));
    } else if (method == "voxel") {
      const PebbleUnion solid(pebbles);
      const double budget = node.positiveOr("voxel_budget", 1e-3);
      mass = voxels > 0 ? massFromVoxels(solid, density, voxels)
                        : massFromVoxelsWithinBudget(solid, density, budget);
    } else if (method == "monte-carlo") {
      mass = massFromMonteCarlo(pebbles, density, samples, halton);
    } else {
      node.child("inertia").fail(
          "unknown inertia method \"" + method +
          "\" (use pebbles, voxel, monte-carlo, given, principal, or mesh with a \"mesh\")");
    }
  }
  try {
    return std::make_shared<const ClumpTemplate>(makeTemplate(name, pebbles, mass, method, density));
  } catch (const std::exception& e) {
    node.fail(e.what());
  }
}
}  // namespace

}  // namespace clumplab::scene_detail
