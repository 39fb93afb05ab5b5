#include "core/io/SceneWriter.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "JsonWriter.hpp"
#include "PointKeys.hpp"
#include "SceneInlets.hpp"
#include "SceneMeshWalls.hpp"
#include "TextFile.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/world/World.hpp"

namespace clumplab {

using json_writer::OrderedJson;
using json_writer::quat;
using json_writer::vec;

namespace {

OrderedJson contactJson(const ContactModel& c) {
  OrderedJson j;
  if (c.kind == ContactModel::Kind::Linear) {
    const LinearContactParameters& p = c.linear;
    j["model"] = "linear";
    j["stiffness"] = p.stiffness;
    if (p.dampingFromRestitution) {
      j["restitution"] = p.restitution;
    } else {
      j["damping"] = p.damping;
    }
    j["friction"] = p.friction;
    j["tangential_stiffness_ratio"] = p.tangentialStiffnessRatio;
    j["tangential_damping"] = p.tangentialDamping;
    j["limit_damping"] = p.limitDamping;
  } else if (c.kind == ContactModel::Kind::HertzMindlin) {
    const HertzMindlinContactParameters& p = c.hertzMindlin;
    j["model"] = "hertz-mindlin";
    j["youngs_modulus"] = p.youngsModulus;
    j["poisson"] = p.poisson;
    j["restitution"] = p.restitution;
    j["friction"] = p.friction;
  } else {
    const HertzContactParameters& p = c.hertz;
    j["model"] = "hertz";
    j["young"] = p.young;
    j["poisson"] = p.poisson;
    j["restitution_squared"] = p.restitutionSquared;
    j["friction"] = p.friction;
    j["regularizing_velocity"] = p.regularizingVelocity;
  }
  return j;
}

bool samePlane(const Wall& a, const Wall& b) {
  return a.kind == Wall::Kind::Plane && b.kind == Wall::Kind::Plane && a.point == b.point &&
         a.normal == b.normal;
}

// Walls as declared: six planes exactly as Wall::box makes them become one box again.
OrderedJson wallsJson(const std::vector<Wall>& walls, const std::string& targetFolder) {
  OrderedJson out = OrderedJson::array();
  for (std::size_t i = 0; i < walls.size();) {
    if (i + 6 <= walls.size() && walls[i].kind == Wall::Kind::Plane) {
      const Vec3 lo = walls[i].point, hi = walls[i + 1].point;
      const std::vector<Wall> box = Wall::box(lo, hi);
      bool isBox = (hi.array() > lo.array()).all();
      for (std::size_t k = 0; isBox && k < 6; ++k) isBox = samePlane(walls[i + k], box[k]);
      if (isBox) {
        out.push_back({{"type", "box"}, {"min", vec(lo)}, {"max", vec(hi)}});
        i += 6;
        continue;
      }
    }
    const Wall& w = walls[i++];
    if (w.kind == Wall::Kind::Plane) {
      out.push_back({{"type", "plane"}, {"point", vec(w.point)}, {"normal", vec(w.normal)}});
    } else if (w.kind == Wall::Kind::Mesh) {
      out.push_back(scene_detail::meshWallJson(w, targetFolder));
    } else if (w.kind == Wall::Kind::Membrane) {
      out.push_back({{"type", "membrane"},
                     {"point", vec(w.point)},
                     {"normal", vec(w.normal)},
                     {"pass_radius", w.passRadius}});
    } else {
      out.push_back({{"type", "sphere"}, {"center", vec(w.point)}, {"radius", w.radius}});
    }
  }
  return out;
}

// `path` (relative to the folder of `fromFile`) made relative to `targetFolder`.
std::string rebasePath(const std::string& path, const std::string& fromFile,
                       const std::string& targetFolder) {
  namespace fs = std::filesystem;
  if (fs::path(path).is_absolute()) return path;
  const fs::path resolved = fs::absolute(fs::path(fromFile).parent_path() / path).lexically_normal();
  const fs::path target =
      fs::absolute(targetFolder.empty() ? fs::path(".") : fs::path(targetFolder)).lexically_normal();
  const fs::path relative = resolved.lexically_relative(target);
  return relative.empty() ? resolved.generic_string() : relative.generic_string();
}

OrderedJson sourceJson(const TemplateSource& source, const std::string& targetFolder) {
  OrderedJson j = OrderedJson::parse(source.definition);
  for (const char* key : {"mesh", "pebbles"}) {  // the keys of a mesh template that name files
    if (j.contains(key) && j[key].is_string()) {
      j[key] = rebasePath(j[key].get<std::string>(), source.file, targetFolder);
    }
  }
  return j;
}

OrderedJson templateJson(const ClumpTemplate& t, const TemplateSource* source,
                         const std::string& targetFolder) {
  OrderedJson j;
  j["inertia"] = "principal";
  j["mass"] = t.mass;
  j["principal_moments"] = vec(t.principalMoments);
  if (t.density > 0.0) j["density"] = t.density;
  if (t.volume > 0.0) j["volume"] = t.volume;
  if (!t.inertiaMethod.empty() && t.inertiaMethod != "principal") j["inertia_method"] = t.inertiaMethod;
  if (source != nullptr && !source->empty()) {
    j["source"] = sourceJson(*source, targetFolder);
    if (source->scale != 1.0) j["source_scale"] = source->scale;
  }
  OrderedJson pebbles = OrderedJson::array();
  for (const Pebble& p : t.pebbles) {
    if (p.isSphere()) {
      pebbles.push_back({p.center.x(), p.center.y(), p.center.z(), p.radius});
    } else {  // a spherocylinder pebble (Scene.hpp): exact to the bit like the rest
      pebbles.push_back({p.center.x(), p.center.y(), p.center.z(), p.radius, p.axis.x(), p.axis.y(),
                         p.axis.z(), p.halfLength});
    }
  }
  j["pebbles"] = std::move(pebbles);
  scene_detail::writePointProperties(t.point, PointProperties{}, j);  // its bodies' defaults
  return j;
}

// The "max" of a periodic axis that reads back to exactly this length (the reader takes max - min):
// lower + length, moved by a few ulps if its rounding says otherwise.
double upperFor(double lower, double length) {
  const double guess = lower + length;
  double below = guess, above = guess;
  for (int k = 0; k < 8; ++k) {
    if (above - lower == length) return above;
    if (below - lower == length) return below;
    above = std::nextafter(above, std::numeric_limits<double>::infinity());
    below = std::nextafter(below, -std::numeric_limits<double>::infinity());
  }
  return guess;
}

// The PaLa and Meland et al., Cluster integration method settings that differ from the defaults: fields, G,
// the 2D plane, periodic box.
void addFieldSettings(const WorldSettings& s, OrderedJson& j) {
  const FieldSettings& f = s.fields;
  const FieldSettings defaults;
  if (f.electric != defaults.electric || f.magnetic != defaults.magnetic || f.softening > 0.0) {
    OrderedJson fields = {{"electric", vec(f.electric)}, {"magnetic", vec(f.magnetic)}};
    if (f.softening > 0.0) fields["softening"] = f.softening;
    j["fields"] = std::move(fields);
  }
  if (f.gravitationalConstant != defaults.gravitationalConstant) {
    j["gravitation"] = {{"G", f.gravitationalConstant}};
  }
  if (s.plane.enabled) j["plane"] = {{"normal", vec(s.plane.normal)}, {"offset", s.plane.offset}};
  if (s.periodic.any()) {
    std::string axes;
    for (int a = 0; a < 3; ++a) {
      if (s.periodic.periodic[a]) axes += "xyz"[a];
    }
    Vec3 upper = s.periodic.lower + s.periodic.length;
    for (int a = 0; a < 3; ++a) upper[a] = upperFor(s.periodic.lower[a], s.periodic.length[a]);
    j["periodic"] = {{"min", vec(s.periodic.lower)}, {"max", vec(upper)}, {"axes", axes}};
  }
}

}  // namespace

// One key per template: its name, or "name#2", "name#3", ... for the copies that share it.
std::vector<std::string> templateKeys(const std::vector<TemplatePtr>& templates) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (const TemplatePtr& t : templates) {
    const std::string base = t->name.empty() ? "template" : t->name;
    std::string name = base;
    for (int k = 2; taken.count(name) > 0; ++k) name = base + "#" + std::to_string(k);
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

Scene sceneFromWorld(const World& world, const Scene& loadedFrom) {
  Scene scene;
  scene.file = loadedFrom.file;
  scene.description = loadedFrom.description;
  scene.duration = loadedFrom.duration;
  scene.startTime = world.time();
  scene.model = world.model();
  for (const TemplatePtr& t : scene.model.templates) {
    TemplateSource source;
    for (std::size_t i = 0; i < loadedFrom.model.templates.size() && i < loadedFrom.templateSources.size();
         ++i) {
      if (loadedFrom.model.templates[i] == t) {
        source = loadedFrom.templateSources[i];
        break;
      }
    }
    // A template that joined the running world with its own recorded source (the clump wizard's):
    // that source, its mesh path absolute or relative to the working folder.
    if (source.empty() && t->source) source = {meshTemplateRequestToJson(*t->source), "", 1.0};
    scene.templateSources.push_back(std::move(source));
  }
  const BodyState& s = world.bodies();
  for (std::size_t b = 0; b < s.size(); ++b) {
    scene.bodies.push_back({s.templateIndex[b], s.position[b], s.orientation[b], s.velocity[b],
                            s.angularVelocity[b], s.blocked[b]});
    scene.bodyPoints.push_back(s.point[b]);
  }
  scene.inlets = world.state().inlets;  // with their progress: a reloaded scene continues them
  return scene;
}

std::string contactToJson(const ContactModel& contact) {
  return contactJson(contact).dump();
}

std::string sceneToJson(const Scene& scene, const std::string& targetFolder) {
  const WorldSettings& s = scene.model.settings;
  OrderedJson j;
  j["format"] = "clumplab-scene/1";
  if (!scene.description.empty()) j["description"] = scene.description;
  if (scene.duration > 0.0) j["duration"] = scene.duration;
  j["time"] = scene.startTime;
  j["time_step"] = s.timeStep;
  j["integrator"] = std::string(integratorName(s.integrator));
  j["euler_iterations"] = s.eulerIterations;
  j["rotor_substeps"] = s.rotorSubsteps;
  j["gyroscopic"] = s.gyroscopic;
  if (s.skin > 0.0) j["skin"] = s.skin;
  j["gravity"] = vec(s.gravity);
  j["damping"] = {{"linear", s.linearDamping}, {"angular", s.angularDamping}};
  if (s.localDamping > 0.0) j["damping"]["local"] = s.localDamping;
  addFieldSettings(s, j);
  if (evaluatesOwnForces(s.integrator) || !(s.cim == CimSettings{})) {
    OrderedJson cim;
    if (s.cim.buffer > 0.0) cim["buffer"] = s.cim.buffer;
    cim["rtol"] = s.cim.relativeTolerance;
    cim["atol"] = s.cim.absoluteTolerance;
    cim["min_step"] = s.cim.minStep;
    if (s.cim.maxStep < CimSettings{}.maxStep) cim["max_step"] = s.cim.maxStep;
    j["cim"] = std::move(cim);
  }
  j["contact"] = contactJson(scene.model.contact);
  j["walls"] = wallsJson(scene.model.walls, targetFolder);
  const std::vector<std::string> names = templateKeys(scene.model.templates);
  // Sorted by name, the order the loader gives them: a reloaded scene saves to the same text.
  std::map<std::string, std::size_t> byName;
  for (std::size_t i = 0; i < names.size(); ++i) byName[names[i]] = i;
  OrderedJson templates = OrderedJson::object();
  for (const auto& [name, i] : byName) {
    const TemplateSource* source = i < scene.templateSources.size() ? &scene.templateSources[i] : nullptr;
    templates[name] = templateJson(*scene.model.templates[i], source, targetFolder);
  }
  j["templates"] = std::move(templates);
  OrderedJson bodies = OrderedJson::array();
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyInit& b = scene.bodies[i];
    const Quat& q = b.orientation;
    OrderedJson body = {{"template", names.at(b.templateIndex)},
                        {"position", vec(b.position)},
                        {"orientation", quat(q)},
                        {"velocity", vec(b.velocity)},
                        {"angular_velocity", vec(b.angularVelocity)}};
    if (b.blocked != 0) body["blocked"] = blockedDofsText(b.blocked);
    scene_detail::writePointProperties(scene.pointOf(i), scene.model.templates[b.templateIndex]->point, body);
    bodies.push_back(std::move(body));
  }
  j["bodies"] = std::move(bodies);
  if (!scene.inlets.empty()) j["inlets"] = scene_detail::inletsJson(scene.inlets, names);
  return json_writer::pretty(j);
}

void saveScene(const Scene& scene, const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  writeTextFileAtomically(path, sceneToJson(scene, folder));
}

}  // namespace clumplab
