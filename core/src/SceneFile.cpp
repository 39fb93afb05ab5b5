#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "JsonReader.hpp"
#include "core/Generation.hpp"
#include "core/PebbleFiles.hpp"
#include "core/Scene.hpp"
#include "core/TemplateFile.hpp"

namespace clumplab {

using json_reader::Node;

namespace {

std::string resolvePath(const std::string& sceneFile, const std::string& relative) {
  const std::filesystem::path p(relative);
  if (p.is_absolute()) return relative;
  return (std::filesystem::path(sceneFile).parent_path() / p).lexically_normal().string();
}

ContactModel readContact(const Node& node) {
  ContactModel c;
  const std::string model = node.child("model").string();
  if (model == "linear") {
    node.allowOnly({"model", "stiffness", "restitution", "damping", "friction", "tangential_stiffness_ratio",
                    "tangential_damping", "limit_damping"});
    c.kind = ContactModel::Kind::Linear;
    LinearContactParameters& p = c.linear;
    p.stiffness = node.positive("stiffness");
    const bool hasE = node.has("restitution"), hasC = node.has("damping");
    if (hasE == hasC) {
      node.fail(
          "give exactly one of \"restitution\" (e, the damping then follows per pair) or "
          "\"damping\" (a fixed normal dashpot c in N s/m)");
    }
    p.dampingFromRestitution = hasE;
    if (hasE) {
      p.restitution = node.child("restitution").nonNegative();
      if (p.restitution > 1.0) node.child("restitution").fail("restitution must lie in [0, 1]");
    } else {
      p.damping = node.child("damping").nonNegative();
    }
    p.friction = node.nonNegativeOr("friction", 0.0);
    p.tangentialStiffnessRatio = node.nonNegativeOr("tangential_stiffness_ratio", 2.0 / 7.0);
    p.tangentialDamping = node.nonNegativeOr("tangential_damping", 0.0);
    if (node.has("limit_damping")) p.limitDamping = node.child("limit_damping").boolean();
  } else if (model == "hertz") {
    node.allowOnly({"model", "young", "poisson", "restitution_squared", "friction", "regularizing_velocity"});
    c.kind = ContactModel::Kind::Hertz;
    HertzContactParameters& p = c.hertz;
    p.young = node.positive("young");
    p.poisson = node.nonNegativeOr("poisson", 0.3);
    if (p.poisson > 0.5) node.child("poisson").fail("Poisson's ratio must lie in [0, 0.5]");
    p.restitutionSquared = node.nonNegativeOr("restitution_squared", 1.0);
    if (p.restitutionSquared > 1.0) node.child("restitution_squared").fail("must lie in [0, 1]");
    p.friction = node.nonNegativeOr("friction", 0.0);
    p.regularizingVelocity = node.positiveOr("regularizing_velocity", 1e-3);
  } else {
    node.child("model").fail("unknown contact model \"" + model + "\" (use \"linear\" or \"hertz\")");
  }
  return c;
}

void readWalls(const Node& node, std::vector<Wall>& walls) {
  for (std::size_t i = 0; i < node.arraySize(); ++i) {
    const Node w = node.element(i);
    const std::string type = w.child("type").string();
    if (type == "plane") {
      w.allowOnly({"type", "point", "normal"});
      const Vec3 normal = w.child("normal").vec3();
      if (!(normal.norm() > 1e-12)) w.child("normal").fail("the normal must not be zero");
      walls.push_back(Wall::plane(w.child("point").vec3(), normal));
    } else if (type == "box") {
      w.allowOnly({"type", "min", "max"});
      const Vec3 lo = w.child("min").vec3(), hi = w.child("max").vec3();
      if (!(hi.array() > lo.array()).all()) w.child("max").fail("every component of max must exceed min");
      for (const Wall& plane : Wall::box(lo, hi)) walls.push_back(plane);
    } else if (type == "sphere") {
      w.allowOnly({"type", "center", "radius"});
      walls.push_back(Wall::cavity(w.child("center").vec3(), w.child("radius").positive()));
    } else {
      w.child("type").fail("unknown wall type \"" + type + "\" (use plane, box or sphere)");
    }
  }
}

// Pebbles [[x, y, z, r], ...] or [[x, y, z, r, density], ...].
void readPebbles(const Node& node, std::vector<Pebble>& pebbles, std::vector<double>& densities) {
  if (node.arraySize() == 0) node.fail("a clump needs at least one pebble");
  for (std::size_t i = 0; i < node.arraySize(); ++i) {
    const Node row = node.element(i);
    const std::size_t n = row.arraySize();
    if (n != 4 && n != 5) row.fail("expected [x, y, z, r] or [x, y, z, r, density]");
    Pebble p;
    p.center = Vec3(row.element(0).number(), row.element(1).number(), row.element(2).number());
    p.radius = row.element(3).positive();
    pebbles.push_back(p);
    densities.push_back(n == 5 ? row.element(4).positive() : -1.0);
  }
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
  node.allowOnly({"spacing", "count", "radius", "mode", "band", "min_radius"});
  const long long count = node.integerOr("count", 0);
  if (node.has("count") && count < 1) node.child("count").fail("the pebble count must be at least 1");
  try {
    fill = makeFillSettings(node.positiveOr("spacing", 0.0), count, node.positiveOr("radius", 0.0),
                            node.stringOr("mode", ""), node.positiveOr("band", 0.0),
                            node.positiveOr("min_radius", 0.0));
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
  samples = s;
  const std::string sequence = node.stringOr("sequence", "halton");
  if (sequence != "halton" && sequence != "sine") {
    node.child("sequence")
        .fail("unknown sequence \"" + sequence + "\" (use \"halton\" or \"sine\", seed 001 eq. 30)");
  }
  halton = sequence == "halton";
}

TemplatePtr readMeshTemplate(const std::string& name, const Node& node, const SceneLoadOptions& options,
                             const std::string& method) {
  const bool builtin = node.has("shape");
  if (builtin && node.has("mesh"))
    node.child("shape").fail("give either \"mesh\" (a file) or \"shape\" (built in)");
  const Node meshNode = node.child(builtin ? "shape" : "mesh");
  if (!options.meshTemplates) {
    meshNode.fail("mesh templates need the shapes library, which this program was built without");
  }
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

TemplatePtr readTemplate(const std::string& name, const Node& node, const SceneLoadOptions& options) {
  node.allowOnly({"density", "inertia", "pebbles", "mass", "center_of_mass", "inertia_tensor", "voxels",
                  "samples", "sequence", "mesh", "scale", "fill", "file", "description", "repair",
                  "voxel_budget", "shape", "size"});
  if (node.has("file")) return readTemplateFile(name, node);
  const bool meshBased = node.has("mesh") || node.has("shape");
  const std::string method = node.stringOr("inertia", meshBased ? "mesh" : "pebbles");
  if (meshBased) return readMeshTemplate(name, node, options, method);
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
      node.child("inertia").fail("unknown inertia method \"" + method +
                                 "\" (use pebbles, voxel, monte-carlo, given, or mesh with a \"mesh\")");
    }
  }
  try {
    return std::make_shared<const ClumpTemplate>(makeTemplate(name, pebbles, mass, method, density));
  } catch (const std::exception& e) {
    node.fail(e.what());
  }
}

BodyInit readBody(const Node& node, const std::map<std::string, std::uint32_t>& names,
                  const std::vector<TemplatePtr>& templates) {
  node.allowOnly({"template", "position", "orientation", "velocity", "angular_velocity"});
  const Node t = node.child("template");
  const auto it = names.find(t.string());
  if (it == names.end()) t.fail("unknown template \"" + t.string() + "\"");
  BodyInit b;
  b.templateIndex = it->second;
  b.position = node.child("position").vec3();
  const Quat user = node.has("orientation") ? node.child("orientation").quaternion() : Quat::Identity();
  // The scene rotates the template as written; compose with its principal rotation (INTERFACES.md).
  b.orientation = (user * templates[b.templateIndex]->rotationFromInput.conjugate()).normalized();
  if (node.has("velocity")) b.velocity = node.child("velocity").vec3();
  if (node.has("angular_velocity")) b.angularVelocity = node.child("angular_velocity").vec3();
  return b;
}

void readGenerate(const Node& node, const std::map<std::string, std::uint32_t>& names, Scene& scene) {
  node.allowOnly(
      {"template", "count", "region", "random_orientation", "scale", "seed", "velocity", "angular_velocity"});
  GenerationRequest r;
  const Node t = node.child("template");
  const auto it = names.find(t.string());
  if (it == names.end()) t.fail("unknown template \"" + t.string() + "\"");
  r.templateIndex = it->second;
  const long long count = node.child("count").integer();
  if (count < 0 || count > 10000000) node.child("count").fail("count must lie in [0, 1e7]");
  r.count = static_cast<std::size_t>(count);
  const Node region = node.child("region");
  region.allowOnly({"min", "max"});
  r.regionMin = region.child("min").vec3();
  r.regionMax = region.child("max").vec3();
  if (!(r.regionMax.array() >= r.regionMin.array()).all())
    region.child("max").fail("every component of max must be >= min");
  if (node.has("random_orientation")) r.randomOrientation = node.child("random_orientation").boolean();
  if (node.has("scale")) {
    const Node s = node.child("scale");
    if (s.arraySize() != 2) s.fail("expected [min, max] scale factors");
    r.scaleMin = s.element(0).positive();
    r.scaleMax = s.element(1).positive();
    if (r.scaleMax < r.scaleMin) s.fail("max scale must be >= min scale");
  }
  if (node.has("seed")) r.seed = static_cast<std::uint64_t>(node.child("seed").integer());
  if (node.has("velocity")) r.velocity = node.child("velocity").vec3();
  if (node.has("angular_velocity")) r.angularVelocity = node.child("angular_velocity").vec3();
  const GenerationResult result = generateBodies(r, scene.templates, scene.bodies, scene.walls);
  if (result.placed < r.count) {
    std::ostringstream s;
    s << "placed only " << result.placed << " of " << r.count << " bodies after " << result.attempts
      << " attempts: the region is too full (make it larger, or ask for fewer or smaller bodies)";
    node.fail(s.str());
  }
}

}  // namespace

namespace {
Scene sceneFromJson(const json_reader::Json& root, const std::string& file, const SceneLoadOptions& options) {
  const Node node(root, file, "");
  node.allowOnly({"format", "description", "time_step", "integrator", "euler_iterations", "gravity",
                  "contact", "walls", "templates", "bodies", "generate", "skin", "gyroscopic", "duration",
                  "rotor_substeps"});
  Scene scene;
  scene.file = file;
  const std::string format = node.child("format").string();
  if (format != "clumplab-scene/1")
    node.child("format").fail("expected \"clumplab-scene/1\", got \"" + format + "\"");
  if (node.has("description")) scene.description = node.child("description").string();
  scene.settings.timeStep = node.positive("time_step");
  if (node.has("duration")) scene.duration = node.child("duration").positive();
  if (node.has("integrator")) {
    const Node in = node.child("integrator");
    const auto kind = integratorFromName(in.string());
    if (!kind) in.fail("unknown integrator \"" + in.string() + "\" (use leapfrog, midpoint or splitting)");
    scene.settings.integrator = *kind;
  }
  if (node.has("euler_iterations")) {
    const long long n = node.child("euler_iterations").integer();
    if (n < 1 || n > 100) node.child("euler_iterations").fail("must lie in [1, 100]");
    scene.settings.eulerIterations = static_cast<int>(n);
  }
  if (node.has("gravity")) scene.settings.gravity = node.child("gravity").vec3();
  if (node.has("skin")) scene.settings.skin = node.child("skin").positive();
  if (node.has("gyroscopic")) scene.settings.gyroscopic = node.child("gyroscopic").boolean();
  if (node.has("rotor_substeps")) {
    const long long n = node.child("rotor_substeps").integer();
    if (n < 1 || n > 64) node.child("rotor_substeps").fail("must lie in [1, 64]");
    scene.settings.rotorSubsteps = static_cast<int>(n);
  }
  scene.contact = readContact(node.child("contact"));
  if (node.has("walls")) readWalls(node.child("walls"), scene.walls);

  const Node templates = node.child("templates");
  templates.requireObject();
  if (templates.json().empty()) templates.fail("define at least one template");
  std::map<std::string, std::uint32_t> names;
  for (const auto& [name, unused] : templates.json().items()) {
    names[name] = static_cast<std::uint32_t>(scene.templates.size());
    scene.templates.push_back(readTemplate(name, templates.child(name), options));
  }
  if (node.has("bodies")) {
    const Node bodies = node.child("bodies");
    for (std::size_t i = 0; i < bodies.arraySize(); ++i) {
      scene.bodies.push_back(readBody(bodies.element(i), names, scene.templates));
    }
  }
  if (node.has("generate")) {
    const Node gen = node.child("generate");
    for (std::size_t i = 0; i < gen.arraySize(); ++i) readGenerate(gen.element(i), names, scene);
  }
  if (scene.bodies.empty()) node.fail("the scene has no bodies (add \"bodies\" or \"generate\")");
  return scene;
}
}  // namespace

Scene parseScene(const std::string& text, const std::string& file, const SceneLoadOptions& options) {
  return sceneFromJson(json_reader::parse(text, file), file, options);
}

Scene loadScene(const std::string& path, const SceneLoadOptions& options) {
  return sceneFromJson(json_reader::parseFile(path), path, options);
}

std::unique_ptr<World> buildWorld(const Scene& scene) {
  auto world = std::make_unique<World>(scene.settings, scene.contact, scene.walls, scene.templates);
  for (const BodyInit& b : scene.bodies) world->addBody(b);
  return world;
}

}  // namespace clumplab
