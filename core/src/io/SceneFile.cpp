#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "JsonReader.hpp"
#include "PointKeys.hpp"
#include "SceneInlets.hpp"
#include "SceneMeshWalls.hpp"
#include "SceneTemplates.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/clump/FreeRotation.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/scene/Scene.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "core/world/Generation.hpp"
#include "core/world/PeriodicChecks.hpp"

#include "core/scene/ScenePlane.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "core/world/World.hpp"
#include "world/WorldOwnForces.hpp"

namespace clumplab {

using json_reader::Node;
using scene_detail::readPointProperties;
using scene_detail::readTemplate;
using scene_detail::withPointKeys;

namespace {

// A generated body this many times larger than its whole region points to a unit slip.
constexpr double kUnitSlipRatio = 30.0;

// A model parameter's value at its key in `object`, refused outside its declared range
// (core/model/ModelParameters.hpp).
double readParameter(const Node& object, std::string_view key) {
  const ModelParameter& p = modelParameter(key);
  const Node n = object.child(p.leafKey());
  const double v = p.integer() ? static_cast<double>(n.integer()) : n.number();
  if (!p.range.contains(v)) n.fail(p.range.complaint(v, std::string(p.unit)));
  return v;
}

double readParameterOr(const Node& object, std::string_view key, double fallback) {
  return object.has(modelParameter(key).leafKey()) ? readParameter(object, key) : fallback;
}

ContactModel readContact(const Node& node) {
  ContactModel c;
  const std::string model = node.child("model").string();
  if (model == "linear") {
    node.allowOnly({"model", "stiffness", "restitution", "damping", "friction", "tangential_stiffness_ratio",
                    "tangential_damping", "limit_damping"});
    c.kind = ContactModel::Kind::Linear;
    LinearContactParameters& p = c.linear;
    p.stiffness = readParameter(node, "linear.stiffness");
    const bool hasE = node.has("restitution"), hasC = node.has("damping");
    if (hasE == hasC) {
      node.fail(
          "give exactly one of \"restitution\" (e, the damping then follows per pair) or "
          "\"damping\" (a fixed normal dashpot c in N s/m)");
    }
    p.dampingFromRestitution = hasE;
    if (hasE) {
      p.restitution = readParameter(node, "linear.restitution");
    } else {
      p.damping = readParameter(node, "linear.damping");
    }
    p.friction = readParameterOr(node, "linear.friction", 0.0);
    p.tangentialStiffnessRatio = readParameterOr(node, "linear.tangential_stiffness_ratio", 2.0 / 7.0);
    p.tangentialDamping = readParameterOr(node, "linear.tangential_damping", 0.0);
    if (node.has("limit_damping")) p.limitDamping = node.child("limit_damping").boolean();
  } else if (model == "hertz") {
    node.allowOnly({"model", "young", "poisson", "restitution_squared", "friction", "regularizing_velocity"});
    c.kind = ContactModel::Kind::Hertz;
    HertzContactParameters& p = c.hertz;
    const HertzContactParameters defaults;  // the keys left out take the model's own defaults
    p.young = readParameter(node, "hertz.young");
    p.poisson = readParameterOr(node, "hertz.poisson", defaults.poisson);
    p.restitutionSquared = readParameterOr(node, "hertz.restitution_squared", defaults.restitutionSquared);
    p.friction = readParameterOr(node, "hertz.friction", defaults.friction);
    p.regularizingVelocity =
        readParameterOr(node, "hertz.regularizing_velocity", defaults.regularizingVelocity);
  } else if (model == "hertz-mindlin") {
    // A material card's keys (LIGGGHTS, EDEM): every one but friction required, no hidden default.
    node.allowOnly({"model", "youngs_modulus", "poisson", "restitution", "friction"});
    c.kind = ContactModel::Kind::HertzMindlin;
    HertzMindlinContactParameters& p = c.hertzMindlin;
    p.youngsModulus = readParameter(node, "hertz-mindlin.youngs_modulus");
    p.poisson = readParameter(node, "hertz-mindlin.poisson");
    p.restitution = readParameter(node, "hertz-mindlin.restitution");
    p.friction = readParameterOr(node, "hertz-mindlin.friction", 0.0);
  } else {
    node.child("model").fail("unknown contact model \"" + model +
                             "\" (use \"linear\", \"hertz\" (Mutze's law) or \"hertz-mindlin\")");
  }
  return c;
}

void readWalls(const Node& node, std::vector<Wall>& walls, const WallMeshReader& meshReader) {
  for (std::size_t i = 0; i < node.arraySize(); ++i) {
    const Node w = node.element(i);
    const std::string type = w.child("type").string();
    if (type == "plane") {
      w.allowOnly({"type", "point", "normal"});
      const Vec3 normal = w.child("normal").vec3();
      if (!(normal.norm() > 1e-12)) w.child("normal").fail("the normal must not be zero");
      // A normal that is unit to round-off (as saved scenes write it) is kept to the bit.
      Wall plane = Wall::plane(w.child("point").vec3(), normal);
      if (std::abs(normal.squaredNorm() - 1.0) < 1e-15) plane.normal = normal;
      walls.push_back(plane);
    } else if (type == "box") {
      w.allowOnly({"type", "min", "max"});
      const Vec3 lo = w.child("min").vec3(), hi = w.child("max").vec3();
      if (!(hi.array() > lo.array()).all()) w.child("max").fail("every component of max must exceed min");
      for (const Wall& plane : Wall::box(lo, hi)) walls.push_back(plane);
    } else if (type == "membrane") {
      w.allowOnly({"type", "point", "normal", "pass_radius"});
      const Vec3 normal = w.child("normal").vec3();
      if (!(normal.norm() > 1e-12)) w.child("normal").fail("the normal must not be zero");
      Wall membrane = Wall::membrane(w.child("point").vec3(), normal, w.child("pass_radius").positive());
      if (std::abs(normal.squaredNorm() - 1.0) < 1e-15) membrane.normal = normal;
      walls.push_back(membrane);
    } else if (type == "mesh") {
      walls.push_back(scene_detail::readMeshWall(w, meshReader));
    } else if (type == "sphere") {
      w.allowOnly({"type", "center", "radius"});
      walls.push_back(Wall::cavity(w.child("center").vec3(), w.child("radius").positive()));
    } else {
      w.child("type").fail("unknown wall type \"" + type + "\" (use plane, box, sphere, membrane or mesh)");
    }
  }
}

BodyInit readBody(const Node& node, const std::map<std::string, std::uint32_t>& names,
                  const std::vector<TemplatePtr>& templates, PointProperties& point,
                  IntegratorKind integrator) {
  node.allowOnly(withPointKeys(
      {"template", "position", "orientation", "velocity", "angular_velocity", "principal_spin", "blocked"}));
  const Node t = node.child("template");
  const auto it = names.find(t.string());
  if (it == names.end()) t.fail("unknown template \"" + t.string() + "\"");
  BodyInit b;
  b.templateIndex = it->second;
  b.position = node.child("position").vec3();
  // Beyond a million kilometres the pebbles' positions lose the precision contacts need (and 1e308
  // overflows at the first step): a unit mistake, refused like a mesh's coordinates.
  if (b.position.cwiseAbs().maxCoeff() > 1e9) node.child("position").fail("a coordinate beyond 1e9 m");
  const Quat user = node.has("orientation") ? node.child("orientation").quaternion() : Quat::Identity();
  // The scene rotates the template as written; compose with its principal rotation (docs/formats.md).
  b.orientation = unitQuaternion(user * templates[b.templateIndex]->rotationFromInput.conjugate());
  point = readPointProperties(node, templates[b.templateIndex]->rotationFromInput,
                              templates[b.templateIndex]->point);
  if (node.has("velocity")) b.velocity = node.child("velocity").vec3();
  if (node.has("angular_velocity")) b.angularVelocity = node.child("angular_velocity").vec3();
  b.blocked = scene_detail::readBlocked(node, integrator);
  if (node.has("principal_spin")) {
    // A spin about principal axis 1, 2 or 3 (I1 <= I2 <= I3) with a perturbation towards the next
    // axis (FreeRotation.hpp's perturbedSpin): the Dzhanibekov lessons need no principal frame.
    const Node spin = node.child("principal_spin");
    if (node.has("angular_velocity")) spin.fail("give either angular_velocity or principal_spin, not both");
    spin.allowOnly({"axis", "rate", "perturbation"});
    const long long axis = spin.child("axis").integer();
    if (axis < 1 || axis > 3) spin.child("axis").fail("the principal axis is 1, 2 or 3 (ascending moments)");
    const double rate = spin.child("rate").number();
    const double perturbation = spin.has("perturbation") ? spin.child("perturbation").number() : 0.0;
    b.angularVelocity = b.orientation * perturbedSpin(static_cast<int>(axis) - 1, rate, perturbation);
  }
  return b;
}

// The scene's pebbles so far plus `added` bodies of `model`, against the pebble and memory limits
// (ResourceLimits.hpp), before any of them is made. `where` names the key that asks for them.
void checkResourceLimits(const Node& where, const Scene& scene, std::size_t added = 0,
                         const ClumpTemplate* model = nullptr) {
  std::size_t pebbles = scene.pebbleCount();
  if (model != nullptr) pebbles += added * model->pebbles.size();
  const std::size_t bodies = scene.bodies.size() + added;
  const ResourceLimits limits = resourceLimits();
  if (pebbles > limits.maxPebbles) {
    where.failLimit("the scene would hold " + std::to_string(pebbles) + " pebbles, more than the limit of " +
                        std::to_string(limits.maxPebbles),
                    "pebbles", pebbles);
  }
  const std::size_t bytes = estimatedWorldBytes(pebbles, bodies), allowed = limits.memoryBytes();
  if (bytes > allowed) {
    where.failLimit("the scene would need about " + std::to_string(bytes >> 20) +
                        " MiB, more than the limit of " + std::to_string(allowed >> 20) + " MiB",
                    "memory-mb", (bytes >> 20) + 1);
  }
}

void readGenerate(const Node& node, const std::map<std::string, std::uint32_t>& names, Scene& scene,
                  bool placeWhatFits) {
  node.allowOnly(withPointKeys({"template", "count", "region", "random_orientation", "scale", "seed",
                                "velocity", "angular_velocity", "random_speed", "random_spin"}));
  GenerationRequest r;
  const Node t = node.child("template");
  const auto it = names.find(t.string());
  if (it == names.end()) t.fail("unknown template \"" + t.string() + "\"");
  r.templateIndex = it->second;
  const long long count = node.child("count").integer();
  if (count < 0) node.child("count").fail("count must not be negative");
  checkResourceLimits(node.child("count"), scene, static_cast<std::size_t>(count),
                      scene.model.templates[r.templateIndex].get());
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
  r.randomSpeed = node.nonNegativeOr("random_speed", 0.0);
  r.randomSpin = node.nonNegativeOr("random_spin", 0.0);
  r.plane = scene.model.settings.plane;
  r.periodic = scene.model.settings.periodic;
  const std::size_t first = scene.bodies.size();
  const GenerationResult result = generateBodies(r, scene.model.templates, scene.bodies, scene.model.walls);
  const ClumpTemplate& model = *scene.model.templates[r.templateIndex];
  const PointProperties point = readPointProperties(node, model.rotationFromInput, model.point);
  scene.bodyPoints.resize(first, PointProperties{});
  scene.bodyPoints.resize(scene.bodies.size(), point);
  const TemplateSource base = r.templateIndex < scene.templateSources.size()
                                  ? scene.templateSources[r.templateIndex]
                                  : TemplateSource{};
  for (const double factor : result.copyScales) {
    TemplateSource copy = base;
    copy.scale *= factor;
    scene.templateSources.push_back(copy);
  }
  if (result.placed < r.count && placeWhatFits) {
    std::ostringstream s;
    s << node.path() << ": " << result.placed << " of " << r.count
      << " bodies fit in the plane of the 2D mode (the region was made for 3D)";
    scene.notes.push_back(s.str());
  } else if (result.placed < r.count) {
    std::ostringstream s;
    s << "placed only " << result.placed << " of " << r.count << " bodies after " << result.attempts
      << " attempts: the region is too full (make it larger, or ask for fewer or smaller bodies)";
    // Bodies far larger than the whole region: most likely a unit slip (mm typed where m are meant).
    const double bodySize = 2.0 * model.boundingRadius * r.scaleMax;
    const double regionSize = (r.regionMax - r.regionMin).maxCoeff();
    if (bodySize >= kUnitSlipRatio * regionSize) {
      s << "; a body (" << bodySize << " m across) is ";
      if (regionSize > 0.0) {
        s << std::setprecision(2) << bodySize / regionSize << std::setprecision(6) << " times the region ("
          << regionSize << " m across)";
      } else {
        s << "larger than the region (which has no extent)";
      }
      s << ": are the pebbles or the region in millimetres where metres are meant?";
    }
    node.fail(s.str());
  }
}

void readFields(const Node& node, FieldSettings& fields) {
  node.allowOnly({"electric", "magnetic", "softening"});
  if (node.has("electric")) fields.electric = node.child("electric").vec3();
  if (node.has("magnetic")) fields.magnetic = node.child("magnetic").vec3();
  fields.softening = readParameterOr(node, "fields.softening", fields.softening);
}

// "plane": {"normal": [nx, ny, nz] or "xy", "xz", "yz", "offset": d}: the 2D mode in n.x = d.
PlaneConstraint readPlane(const Node& node) {
  node.allowOnly({"normal", "offset"});
  PlaneConstraint plane;
  plane.enabled = true;
  const Node n = node.child("normal");
  if (n.json().is_string()) {
    const std::string name = n.string();
    const int axis = name == "yz" ? 0 : name == "xz" ? 1 : name == "xy" ? 2 : -1;
    if (axis < 0) n.fail("unknown plane \"" + name + "\" (use \"xy\", \"xz\", \"yz\" or a normal vector)");
    plane.normal = Vec3::Unit(axis);
  } else {
    const Vec3 v = n.vec3();
    if (!(v.norm() > 1e-12)) n.fail("the normal must not be zero");
    plane.normal = std::abs(v.squaredNorm() - 1.0) < 1e-15 ? v : Vec3(v.normalized());
  }
  if (node.has("offset")) plane.offset = node.child("offset").number();
  return plane;
}

// "periodic": {"min": [x, y, z], "max": [x, y, z], "axes": "xz"}: periodic boundaries across the
// box's faces on the axes named (the cluster integration paper's cubic periodic box is "xyz").
PeriodicBox readPeriodic(const Node& node) {
  node.allowOnly({"min", "max", "axes"});
  PeriodicBox box;
  const Node axes = node.child("axes");
  const std::string names = axes.string();
  if (names.empty()) axes.fail("name at least one axis (\"x\", \"xz\", \"xyz\", ...)");
  for (const char c : names) {
    const int a = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
    if (a < 0) axes.fail(std::string("unknown axis '") + c + "' (use x, y and z)");
    if (box.periodic[a]) axes.fail(std::string("axis '") + c + "' named twice");
    box.periodic[a] = true;
  }
  const Vec3 lo = node.child("min").vec3(), hi = node.child("max").vec3();
  for (int a = 0; a < 3; ++a) {
    if (box.periodic[a] && !(hi[a] > lo[a])) {
      node.child("max").fail("the box must have a positive length on every periodic axis");
    }
  }
  box.lower = lo;
  box.length = hi - lo;
  return box;
}

// "cim": {"buffer": Delta, "rtol": r, "atol": a, "min_step": dt_min, "max_step": dt_max}: the cim and
// rk4 integrators' settings (CimSettings.hpp; Meland et al., Cluster integration method), each optional.
CimSettings readCim(const Node& node) {
  node.allowOnly({"buffer", "rtol", "atol", "min_step", "max_step"});
  CimSettings c;
  c.buffer = readParameterOr(node, "cim.buffer", c.buffer);
  c.relativeTolerance = readParameterOr(node, "cim.rtol", c.relativeTolerance);
  c.absoluteTolerance = readParameterOr(node, "cim.atol", c.absoluteTolerance);
  c.minStep = readParameterOr(node, "cim.min_step", c.minStep);
  c.maxStep = readParameterOr(node, "cim.max_step", c.maxStep);
  return c;
}

}  // namespace

namespace {
// The settings: time step, integrator, gravity, damping, fields, plane, periodic box, cim.
void readSettings(const Node& node, Scene& scene) {
  if (node.has("description")) scene.description = node.child("description").string();
  scene.model.settings.timeStep = readParameter(node, "time_step");
  if (node.has("duration")) scene.duration = node.child("duration").positive();
  if (node.has("time")) scene.startTime = node.child("time").nonNegative();
  if (node.has("integrator")) {
    const Node in = node.child("integrator");
    const auto kind = integratorFromName(in.string());
    if (!kind) {
      in.fail("unknown integrator \"" + in.string() + "\" (use leapfrog, midpoint, splitting, cim or rk4)");
    }
    scene.model.settings.integrator = *kind;
  }
  scene.model.settings.eulerIterations =
      static_cast<int>(readParameterOr(node, "euler_iterations", scene.model.settings.eulerIterations));
  if (node.has("gravity")) scene.model.settings.gravity = node.child("gravity").vec3();
  scene.model.settings.skin = readParameterOr(node, "skin", scene.model.settings.skin);
  if (node.has("gyroscopic")) scene.model.settings.gyroscopic = node.child("gyroscopic").boolean();
  scene.model.settings.rotorSubsteps =
      static_cast<int>(readParameterOr(node, "rotor_substeps", scene.model.settings.rotorSubsteps));
  if (node.has("damping")) {
    const Node damping = node.child("damping");
    damping.allowOnly({"linear", "angular", "local"});
    scene.model.settings.linearDamping = readParameterOr(damping, "damping.linear", 0.0);
    scene.model.settings.angularDamping = readParameterOr(damping, "damping.angular", 0.0);
    scene.model.settings.localDamping = readParameterOr(damping, "damping.local", 0.0);
  }
  if (node.has("fields")) readFields(node.child("fields"), scene.model.settings.fields);
  if (node.has("gravitation")) {
    const Node g = node.child("gravitation");
    g.allowOnly({"G"});
    scene.model.settings.fields.gravitationalConstant = readParameter(g, "gravitation.G");
  }
  if (node.has("plane")) scene.model.settings.plane = readPlane(node.child("plane"));
  if (node.has("periodic")) scene.model.settings.periodic = readPeriodic(node.child("periodic"));
  if (node.has("cim")) scene.model.settings.cim = readCim(node.child("cim"));
}

// The contact law, and what the cim and rk4 integrators cannot do with it.
void readContactLaw(const Node& node, Scene& scene) {
  scene.model.contact = readContact(node.child("contact"));
  if (evaluatesOwnForces(scene.model.settings.integrator)) {
    try {  // what cim and rk4 cannot do, named at the integrator key
      requireOwnForcesSupport(scene.model.settings.integrator, scene.model.settings, scene.model.contact);
    } catch (const std::invalid_argument& e) {
      node.child("integrator").fail(e.what());
    }
  }
}

void readSceneWalls(const Node& node, const SceneLoadOptions& options, Scene& scene) {
  if (node.has("walls")) readWalls(node.child("walls"), scene.model.walls, options.wallMeshes);
  if (const std::string p =
          meshWallProblem(scene.model.walls, false, evaluatesOwnForces(scene.model.settings.integrator));
      !p.empty()) {
    node.child("walls").fail(p);
  }
}

// The templates, each with its index in scene.model.templates by name, checked against the mesh walls.
std::map<std::string, std::uint32_t> readTemplates(const Node& node, const SceneLoadOptions& options,
                                                   Scene& scene) {
  const Node templates = node.child("templates");
  templates.requireObject();
  // No templates only in a world that is empty on purpose ("bodies": [], nothing generated or
  // inserted): a Python script's empty world, which add_body fills, saved as it is.
  const bool emptyOnPurpose = node.has("bodies") && node.child("bodies").json().is_array() &&
                              node.child("bodies").json().empty() && !node.has("generate") &&
                              !node.has("inlets");
  if (templates.json().empty() && !emptyOnPurpose) templates.fail("define at least one template");
  std::map<std::string, std::uint32_t> names;
  for (const auto& [name, unused] : templates.json().items()) {
    names[name] = static_cast<std::uint32_t>(scene.model.templates.size());
    TemplateSource source;
    scene.model.templates.push_back(readTemplate(name, templates.child(name), options, source));
    scene.templateSources.push_back(std::move(source));
  }
  const bool capsules =
      std::any_of(scene.model.templates.begin(), scene.model.templates.end(), [](const TemplatePtr& t) {
        return std::any_of(t->pebbles.begin(), t->pebbles.end(),
                           [](const Pebble& p) { return !p.isSphere(); });
      });
  if (const std::string p = meshWallProblem(scene.model.walls, capsules, false); !p.empty())
    node.child("walls").fail(p);
  return names;
}

void applySphereSwitch(const Node& node, const SceneLoadOptions& options, Scene& scene) {
  // PaLa's switch (Mutze, Polyspherical grains, §1 (ii)): every clump as one sphere, before the bodies are
  // placed, so that generated bodies are placed without overlaps as spheres.
  std::optional<SphereKind> spheres = options.spheres;
  if (node.has("spheres") && !spheres) {
    const Node key = node.child("spheres");
    const std::string kind = key.string();
    if (kind == "bounding") {
      spheres = SphereKind::Bounding;
    } else if (kind == "volume") {
      spheres = SphereKind::VolumeEquivalent;
    } else if (kind != "none") {
      key.fail(
          "expected \"bounding\", \"volume\" or \"none\" (every clump as its bounding or volume-equivalent "
          "sphere)");
    }
  }
  if (spheres) switchToSpheres(scene, *spheres);
}

void checkPeriodicBox(const Node& node, const Scene& scene) {
  // the cluster integration paper's periodic box: long enough for the largest template, walls uniform along
  // it (PeriodicChecks.hpp); checked before any body is placed.
  if (node.has("periodic")) {
    const std::string problem =
        periodicProblem(scene.model.settings.periodic, scene.model.templates, scene.model.walls,
                        PlaneConstraint{}, resolvedSkin(scene.model.settings.skin, scene.model.templates));
    if (!problem.empty()) node.child("periodic").fail(problem);
  }
}

// The explicit bodies, within the resource limits and not deep inside each other or a wall.
void readBodies(const Node& node, const std::map<std::string, std::uint32_t>& names,
                const SceneLoadOptions& options, Scene& scene) {
  if (node.has("bodies")) {
    const Node bodies = node.child("bodies");
    for (std::size_t i = 0; i < bodies.arraySize(); ++i) {
      PointProperties point;
      scene.bodies.push_back(
          readBody(bodies.element(i), names, scene.model.templates, point, scene.model.settings.integrator));
      scene.bodyPoints.push_back(point);
    }
    checkResourceLimits(bodies, scene);
    // Bodies placed deep inside each other or a wall would be thrown apart at the first step (the
    // divergence check's half a pebble radius): refused here, with the two named, instead.
    // (The user's sphere switch may make them overlap: the app reports that instead.)
    if (const InitialOverlap o = options.spheres ? InitialOverlap{} : worstInitialOverlapOf(scene);
        o.ratio > 0.5) {
      std::ostringstream s;
      s << std::setprecision(3);
      if (o.ratio < 10.0) {
        s << 100.0 * o.ratio << "% of a pebble radius";
      } else {
        s << o.ratio << " pebble radii";
      }
      const std::string depth = s.str();
      bodies.element(o.body).fail(
          o.wall >= 0 ? "reaches " + depth + " into walls[" + std::to_string(o.wall) +
                            "] at the start; the first step would throw it out: move it clear of the wall"
                      : "overlaps bodies[" + std::to_string(o.other) + "] by " + depth +
                            " at the start; the first step would throw them apart: move them apart");
    }
  }
}

void confineToScenePlane(const Node& node, const SceneLoadOptions& options, Scene& scene) {
  // PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)): explicit bodies move into the plane,
  // generated ones are placed in it. A region that fits its count in 3D but not in the plane the user
  // switched to gets what fits (a scene written for 2D must fit, as any other).
  if (options.plane) {
    // The user's 2D switch: a periodic axis across the plane has nothing to wrap in 2D; drop it.
    const int normalAxis = options.plane->enabled ? options.plane->axis() : -1;
    if (normalAxis >= 0 && scene.model.settings.periodic.periodic[static_cast<std::size_t>(normalAxis)]) {
      scene.model.settings.periodic.periodic[static_cast<std::size_t>(normalAxis)] = false;
      scene.notes.push_back(std::string("In 2D, the scene's periodic ") + "xyz"[normalAxis] +
                            " axis (across the plane) is no longer periodic.");
    }
    confineToPlane(scene, *options.plane);
    if (options.plane->enabled && !scene.bodies.empty()) {
      scene.notes.push_back(
          "In 2D, the scene's bodies were moved into the plane; they may overlap at first.");
    }
  } else if (scene.model.settings.plane.enabled) {
    confineToPlane(scene, scene.model.settings.plane);
  }
  if (const std::string problem =
          periodicPlaneProblem(scene.model.settings.periodic, scene.model.settings.plane);
      !problem.empty()) {
    node.child(node.has("plane") ? "plane" : "periodic").fail(problem);
  }
}

void generateBodies(const Node& node, const std::map<std::string, std::uint32_t>& names,
                    const SceneLoadOptions& options, Scene& scene) {
  if (node.has("generate")) {
    const Node gen = node.child("generate");
    const bool fitWhatFits = options.plane && options.plane->enabled;
    for (std::size_t i = 0; i < gen.arraySize(); ++i) readGenerate(gen.element(i), names, scene, fitWhatFits);
  }
}

// The inlets, and the most each can insert within the resource limits.
void readSceneInlets(const Node& node, const std::map<std::string, std::uint32_t>& names, Scene& scene) {
  if (node.has("inlets")) {
    scene_detail::readInlets(node.child("inlets"), names, scene);
    // The most an inlet can insert (max_count, or max_mass over its lightest template) with the
    // scene's bodies, against the pebble and memory limits; an inlet with neither limit goes on
    // while its region has room.
    for (std::size_t i = 0; i < scene.inlets.size(); ++i) {
      const InletSettings& in = scene.inlets[i].settings();
      const ClumpTemplate* largest = nullptr;
      double lightest = std::numeric_limits<double>::infinity();
      for (const std::uint32_t t : in.templates) {
        const ClumpTemplate* c = scene.model.templates[t].get();
        if (largest == nullptr || c->pebbles.size() > largest->pebbles.size()) largest = c;
        lightest = std::min(lightest, c->mass);
      }
      const double most = std::min(static_cast<double>(in.maxCount), std::floor(in.maxMass / lightest));
      const Node entry = node.child("inlets").element(i);
      if (std::isfinite(most) && most < 1e15) {
        checkResourceLimits(entry.child(static_cast<double>(in.maxCount) <= most ? "max_count" : "max_mass"),
                            scene, static_cast<std::size_t>(most), largest);
      }
    }
  }
}

// What the bodies and inlets ask of the integrator and of the 2D mode; a scene with something in it.
void checkBodiesAgainstSettings(const Node& node, const Scene& scene) {
  if (evaluatesOwnForces(scene.model.settings.integrator)) {
    for (const Inlet& inlet : scene.inlets) {
      for (const std::uint32_t t : inlet.settings().templates) {
        try {
          requireOwnForcesSupport(scene.model.settings.integrator, scene.model.templates[t]->point);
        } catch (const std::invalid_argument& e) {
          node.child("integrator").fail(e.what());
        }
      }
    }
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
      try {
        requireOwnForcesSupport(scene.model.settings.integrator, scene.pointOf(b));
      } catch (const std::invalid_argument& e) {
        node.child("integrator").fail(e.what());
      }
    }
  }
  // Blocked rotations and the 2D mode (which turns bodies about its normal only) exclude each other.
  if (scene.model.settings.plane.enabled && node.has("bodies")) {
    for (std::size_t i = 0; i < node.child("bodies").arraySize(); ++i) {
      if (scene.bodies[i].blocked & blocked_dofs::kRotations) {
        node.child("bodies").element(i).child("blocked").fail(
            "blocked rotations cannot be combined with the 2D mode (which already turns bodies about its "
            "normal "
            "only); block translations only");
      }
    }
  }
  // An explicit "bodies": [] is an empty scene on purpose (a saved world whose bodies were all removed).
  if (scene.bodies.empty() && !node.has("bodies") && scene.inlets.empty()) {
    node.fail("the scene has no bodies (add \"bodies\", \"generate\" or \"inlets\")");
  }
}

// A scene from its JSON, step by step in the order each needs what the one before made: the sphere
// switch before bodies are placed, the periodic box checked before any is, the explicit bodies in the
// 2D plane before more are generated in it, the inlets' limits counted with those bodies.
Scene sceneFromJson(const json_reader::Json& root, const std::string& file, const SceneLoadOptions& options) {
  const Node node(root, file, "");
  node.allowOnly({"format",   "description", "time_step",  "integrator", "euler_iterations",
                  "gravity",  "contact",     "walls",      "templates",  "bodies",
                  "generate", "skin",        "gyroscopic", "duration",   "rotor_substeps",
                  "time",     "damping",     "spheres",    "fields",     "gravitation",
                  "plane",    "periodic",    "cim",        "inlets"});
  Scene scene;
  scene.file = file;
  const std::string format = node.child("format").string();
  if (format != "clumplab-scene/1")
    node.child("format").fail("expected \"clumplab-scene/1\", got \"" + format + "\"");
  readSettings(node, scene);
  readContactLaw(node, scene);
  readSceneWalls(node, options, scene);
  const std::map<std::string, std::uint32_t> names = readTemplates(node, options, scene);
  applySphereSwitch(node, options, scene);
  checkPeriodicBox(node, scene);
  readBodies(node, names, options, scene);
  confineToScenePlane(node, options, scene);
  generateBodies(node, names, options, scene);
  readSceneInlets(node, names, scene);
  checkBodiesAgainstSettings(node, scene);
  return scene;
}
}  // namespace

Scene parseScene(const std::string& text, const std::string& file, const SceneLoadOptions& options) {
  return sceneFromJson(json_reader::parse(text, file), file, options);
}

Scene loadScene(const std::string& path, const SceneLoadOptions& options) {
  return sceneFromJson(json_reader::parseFile(path), path, options);
}

ContactModel contactFromJson(const std::string& text, const std::string& file) {
  const json_reader::Json contact = json_reader::parse(text, file);
  return readContact(Node(contact, file, "contact"));
}

std::unique_ptr<World> buildWorld(const Scene& scene) {
  auto world = std::make_unique<World>(scene.model);
  world->reserve(scene.bodies.size(), scene.pebbleCount());
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) world->addBody(scene.bodies[b], scene.pointOf(b));
  for (const Inlet& inlet : scene.inlets) world->addInlet(inlet);
  world->setTime(scene.startTime);
  return world;
}

}  // namespace clumplab
