#include "core/io/TemplateFile.hpp"

#include <stdexcept>

#include <memory>

#include "JsonReader.hpp"
#include "PointKeys.hpp"
#include "SceneTemplates.hpp"
#include "TextFile.hpp"

namespace clumplab {

using json_reader::Json;
using json_reader::Node;

namespace {
ClumpMetrics metricsFromJson(const Node& node) {
  node.allowOnly({"mesh_volume", "clump_volume", "volume_error", "principal_moment_errors",
                  "axis_misalignment_deg", "largest_protrusion", "largest_gap", "dzhanibekov_margin",
                  "mesh_dzhanibekov_margin", "clump_method", "dice", "smallest_radius", "fill_method",
                  "predicted_cost"});
  ClumpMetrics m;
  m.meshVolume = node.nonNegativeOr("mesh_volume", 0.0);
  m.clumpVolume = node.nonNegativeOr("clump_volume", 0.0);
  if (node.has("volume_error")) m.volumeError = node.child("volume_error").number();
  if (node.has("principal_moment_errors"))
    m.principalMomentErrors = node.child("principal_moment_errors").vec3();
  m.axisMisalignmentDeg = node.nonNegativeOr("axis_misalignment_deg", 0.0);
  m.largestProtrusion = node.nonNegativeOr("largest_protrusion", 0.0);
  m.largestGap = node.nonNegativeOr("largest_gap", 0.0);
  m.dzhanibekovMargin = node.nonNegativeOr("dzhanibekov_margin", 0.0);
  m.meshDzhanibekovMargin = node.nonNegativeOr("mesh_dzhanibekov_margin", 0.0);
  m.clumpMethod = node.stringOr("clump_method", "");
  m.dice = node.nonNegativeOr("dice", 0.0);
  if (m.dice > 1.0) node.child("dice").fail("the Dice coefficient must lie in [0, 1]");
  m.smallestRadius = node.nonNegativeOr("smallest_radius", 0.0);
  m.fillMethod = node.stringOr("fill_method", "");
  if (node.has("predicted_cost")) {
    const Node c = node.child("predicted_cost");
    c.allowOnly({"law", "time_step", "critical_step", "bodies", "exposed_pebbles", "seconds_per_step",
                 "simulated_seconds_per_wall_second"});
    PileCost cost;
    cost.law = c.stringOr("law", "");
    cost.timeStep = c.positive("time_step");
    cost.criticalStep = c.positiveOr("critical_step", cost.timeStep);
    const long long bodies = c.child("bodies").integer();
    if (bodies < 1 || bodies > 1'000'000'000) c.child("bodies").fail("a pile of 1 to 1e9 bodies");
    cost.bodies = static_cast<int>(bodies);
    const long long exposed = c.integerOr("exposed_pebbles", 0);
    if (exposed < 0) c.child("exposed_pebbles").fail("must not be negative");
    cost.exposedPebbles = static_cast<int>(std::min<long long>(exposed, 1'000'000'000));
    cost.secondsPerStep = c.positive("seconds_per_step");
    cost.simulatedSecondsPerWallSecond = c.positive("simulated_seconds_per_wall_second");
    m.pileCost = cost;
  }
  return m;
}

ClumpTemplate templateFromJson(const Json& root, const std::string& file) {
  const Node node(root, file, "");
  node.allowOnly(scene_detail::withPointKeys(
      {"format", "name", "density", "mass", "volume", "principal_moments", "rotation_from_input",
       "center_of_mass_in_input", "pebbles", "inertia_method", "source_mesh", "metrics", "bounding_radius",
       "fill", "mesh_report",  // how it was made (informative)
       "source"}));
  const std::string format = node.child("format").string();
  if (format != "clumplab-template/1")
    node.child("format").fail("expected \"clumplab-template/1\", got \"" + format + "\"");
  ClumpTemplate t;
  t.name = node.stringOr("name", "template");
  t.density = node.positiveOr("density", 0.0);
  t.mass = node.positive("mass");
  t.volume = node.positiveOr("volume", (t.density > 0.0 ? t.mass / t.density : 0.0));
  const Node moments = node.child("principal_moments");
  t.principalMoments = moments.vec3();
  if (!(t.principalMoments.minCoeff() > 0.0)) moments.fail("principal moments must be positive");
  if (t.principalMoments[0] > t.principalMoments[1] || t.principalMoments[1] > t.principalMoments[2]) {
    moments.fail("principal moments must be ascending (I1 <= I2 <= I3)");
  }
  if (node.has("rotation_from_input")) t.rotationFromInput = node.child("rotation_from_input").quaternion();
  if (node.has("center_of_mass_in_input"))
    t.centerOfMassInInput = node.child("center_of_mass_in_input").vec3();
  t.inertiaMethod = node.stringOr("inertia_method", "given");
  t.sourceMesh = node.stringOr("source_mesh", "");
  if (node.has("metrics")) t.metrics = metricsFromJson(node.child("metrics"));
  if (node.has("source")) {
    t.source = std::make_shared<const MeshTemplateRequest>(
        scene_detail::readMeshSource(t.name, node.child("source")));
  }
  // The point properties its bodies carry by default, in the principal frame as written.
  t.point = scene_detail::readPointProperties(node, Quat::Identity(), PointProperties{});
  const Node pebbles = node.child("pebbles");
  if (pebbles.arraySize() == 0) pebbles.fail("a clump needs at least one pebble");
  t.minPebbleRadius = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < pebbles.arraySize(); ++i) {
    const Node row = pebbles.element(i);
    if (row.arraySize() != 4) row.fail("expected [x, y, z, r]");
    Pebble p{Vec3(row.element(0).number(), row.element(1).number(), row.element(2).number()),
             row.element(3).positive()};
    t.pebbles.push_back(p);
    t.boundingRadius = std::max(t.boundingRadius, p.center.norm() + p.radius);
    t.minPebbleRadius = std::min(t.minPebbleRadius, p.radius);
  }
  return t;
}

}  // namespace

ClumpTemplate parseTemplateFile(const std::string& text, const std::string& file) {
  return templateFromJson(json_reader::parse(text, file), file);
}

ClumpTemplate loadTemplateFile(const std::string& path) {
  return templateFromJson(json_reader::parseFile(path), path);
}

std::string metricsToJson(const ClumpMetrics& m) {
  const Vec3& e = m.principalMomentErrors;
  Json j = {{"mesh_volume", m.meshVolume},
            {"clump_volume", m.clumpVolume},
            {"volume_error", m.volumeError},
            {"principal_moment_errors", {e.x(), e.y(), e.z()}},
            {"axis_misalignment_deg", m.axisMisalignmentDeg},
            {"largest_protrusion", m.largestProtrusion},
            {"largest_gap", m.largestGap},
            {"dzhanibekov_margin", m.dzhanibekovMargin},
            {"mesh_dzhanibekov_margin", m.meshDzhanibekovMargin},
            {"clump_method", m.clumpMethod},
            {"dice", m.dice},
            {"smallest_radius", m.smallestRadius}};
  if (!m.fillMethod.empty()) j["fill_method"] = m.fillMethod;
  if (m.pileCost) {
    const PileCost& c = *m.pileCost;
    j["predicted_cost"] = {{"law", c.law},
                           {"time_step", c.timeStep},
                           {"critical_step", c.criticalStep},
                           {"bodies", c.bodies},
                           {"exposed_pebbles", c.exposedPebbles},
                           {"seconds_per_step", c.secondsPerStep},
                           {"simulated_seconds_per_wall_second", c.simulatedSecondsPerWallSecond}};
  }
  return j.dump();
}

std::string templateToJson(const ClumpTemplate& t) {
  for (const Pebble& p : t.pebbles) {
    if (!p.isSphere()) {
      throw std::invalid_argument("template '" + t.name +
                                  "' has spherocylinder pebbles, which template files cannot hold: a scene "
                                  "names a spherocylinder by {\"shape\": \"spherocylinder\", ...}");
    }
  }
  Json j;
  j["format"] = "clumplab-template/1";
  j["name"] = t.name;
  j["density"] = t.density;
  j["mass"] = t.mass;
  j["volume"] = t.volume;
  j["principal_moments"] = {t.principalMoments.x(), t.principalMoments.y(), t.principalMoments.z()};
  const Quat& q = t.rotationFromInput;
  j["rotation_from_input"] = {q.w(), q.x(), q.y(), q.z()};
  j["center_of_mass_in_input"] = {t.centerOfMassInInput.x(), t.centerOfMassInInput.y(),
                                  t.centerOfMassInInput.z()};
  j["bounding_radius"] = t.boundingRadius;
  Json pebbles = Json::array();
  for (const Pebble& p : t.pebbles) pebbles.push_back({p.center.x(), p.center.y(), p.center.z(), p.radius});
  j["pebbles"] = pebbles;
  j["inertia_method"] = t.inertiaMethod;
  if (!t.sourceMesh.empty()) j["source_mesh"] = t.sourceMesh;
  if (t.metrics) j["metrics"] = Json::parse(metricsToJson(*t.metrics));
  if (t.source) j["source"] = Json::parse(meshTemplateRequestToJson(*t.source));
  scene_detail::writePointProperties(t.point, PointProperties{}, j);
  return j.dump(1);
}

void saveTemplateFile(const ClumpTemplate& t, const std::string& path) {
  writeTextFileAtomically(path, templateToJson(t));
}

std::string meshTemplateRequestToJson(const MeshTemplateRequest& r) {
  Json j;
  if (r.shape.empty()) {
    j["mesh"] = r.meshFile;
  } else {
    j["shape"] = r.shape;
    if (r.shapeSize > 0.0) j["size"] = r.shapeSize;
  }
  j["scale"] = r.scale;
  j["density"] = r.density;
  j["inertia"] = r.inertia;
  if (r.hasFill) {
    const FillSettings& f = r.fill;
    Json fill;
    if (f.spheres) {
      fill["mode"] = "spheres";
      if (f.targetCount > 0) {
        fill["count"] = f.targetCount;
      } else {
        fill["target_dice"] = f.targetDice;
        if (f.maxCount > 0) fill["max_count"] = f.maxCount;
      }
      if (f.maxProtrusion >= 0.0) fill["max_protrusion"] = f.maxProtrusion;
      if (f.minimumRadius > 0.0) fill["min_radius"] = f.minimumRadius;
      if (f.seed != 1) fill["seed"] = f.seed;
    } else if (f.spacing > 0.0) {
      fill["spacing"] = f.spacing;
    } else {
      fill["count"] = f.targetCount;
    }
    if (!f.spheres) {
      if (f.radius > 0.0) fill["radius"] = f.radius;
      fill["mode"] = f.shellOnly ? "shell" : f.fitted ? "fitted" : f.radius > 0.0 ? "given" : "circumscribed";
      if (f.shellOnly && f.shellBand > 0.0) fill["band"] = f.shellBand;
      if (f.fitted && f.minimumRadius > 0.0) fill["min_radius"] = f.minimumRadius;
    }
    j["fill"] = fill;
  } else if (!r.pebbles.empty()) {
    Json pebbles = Json::array();
    for (const Pebble& p : r.pebbles) pebbles.push_back({p.center.x(), p.center.y(), p.center.z(), p.radius});
    j["pebbles"] = pebbles;
  }
  if (r.repair) j["repair"] = true;
  if (r.voxels > 0) {
    j["voxels"] = r.voxels;
  } else {
    j["voxel_budget"] = r.voxelBudget;
  }
  j["samples"] = r.samples;
  j["sequence"] = r.halton ? "halton" : "sine";
  return j.dump();
}

}  // namespace clumplab
