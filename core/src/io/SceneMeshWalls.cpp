#include "SceneMeshWalls.hpp"

#include <filesystem>
#include <stdexcept>

#include "SceneTemplates.hpp"
#include "core/integrate/BlockedDofs.hpp"

namespace clumplab::scene_detail {

using json_reader::Node;
using json_writer::OrderedJson;
using json_writer::quat;
using json_writer::vec;

namespace {

WallMotion readMotion(const Node& node, const Node& wall) {
  WallMotion m;
  const std::string type = node.child("type").string();
  if (type == "velocity") {
    node.allowOnly({"type", "linear", "angular", "center"});
    m.kind = WallMotion::Kind::Velocity;
    if (node.has("linear")) m.linear = node.child("linear").vec3();
    if (node.has("angular")) m.angular = node.child("angular").vec3();
    m.center = node.has("center") ? node.child("center").vec3()
                                  : (wall.has("position") ? wall.child("position").vec3() : Vec3::Zero());
  } else if (type == "interpolated") {
    node.allowOnly({"type", "times", "positions", "orientations"});
    m.kind = WallMotion::Kind::Interpolated;
    for (const char* key : {"position", "orientation"}) {
      if (wall.has(key)) {
        wall.child(key).fail(
            "an interpolated motion gives the wall's pose at every time: remove \"position\" and "
            "\"orientation\" (put the pose in the motion's keys)");
      }
    }
    const Node times = node.child("times"), positions = node.child("positions"),
               orientations = node.child("orientations");
    const std::size_t n = times.arraySize();
    if (n == 0) times.fail("give at least one time");
    if (positions.arraySize() != n) positions.fail("needs one position per time (" + std::to_string(n) + ")");
    if (orientations.arraySize() != n)
      orientations.fail("needs one orientation per time (" + std::to_string(n) + ")");
    for (std::size_t i = 0; i < n; ++i) {
      const double t = times.element(i).number();
      if (i > 0 && !(t > m.times.back())) times.element(i).fail("times must increase strictly");
      m.times.push_back(t);
      m.positions.push_back(positions.element(i).vec3());
      m.orientations.push_back(orientations.element(i).quaternion());
    }
  } else {
    node.child("type").fail("unknown motion \"" + type + "\" (use \"velocity\" or \"interpolated\")");
  }
  return m;
}

}  // namespace

Wall readMeshWall(const Node& node, const WallMeshReader& reader) {
  node.allowOnly({"type", "file", "scale", "position", "orientation", "motion"});
  const Node fileNode = node.child("file");
  if (!reader) fileNode.fail("mesh walls need the shapes library to read meshes, which this program lacks");
  auto wall = std::make_shared<MeshWall>();
  wall->file = resolvePath(node.file(), fileNode.string());
  wall->scale = node.positiveOr("scale", 1.0);
  TriangleMesh mesh;
  try {
    mesh = reader(wall->file);
  } catch (const std::exception& e) {
    fileNode.fail(e.what());
  }
  for (Vec3& v : mesh.vertices) v *= wall->scale;
  try {
    wall->shape = std::make_shared<const MeshWallShape>(mesh);
  } catch (const std::invalid_argument& e) {
    fileNode.fail(wall->file + ": " + e.what());
  }
  if (node.has("motion")) wall->motion = readMotion(node.child("motion"), node);
  if (wall->motion.kind != WallMotion::Kind::Interpolated) {
    if (node.has("position")) wall->motion.position = node.child("position").vec3();
    if (node.has("orientation")) wall->motion.orientation = node.child("orientation").quaternion();
  }
  return Wall::meshWall(std::move(wall));
}

OrderedJson meshWallJson(const Wall& wall, const std::string& targetFolder) {
  namespace fs = std::filesystem;
  const MeshWall& m = *wall.mesh;
  const fs::path file = fs::absolute(m.file).lexically_normal();
  const fs::path target =
      fs::absolute(targetFolder.empty() ? fs::path(".") : fs::path(targetFolder)).lexically_normal();
  const fs::path relative = file.lexically_relative(target);
  OrderedJson j = {{"type", "mesh"},
                   {"file", relative.empty() ? file.generic_string() : relative.generic_string()},
                   {"scale", m.scale}};
  const WallMotion& motion = m.motion;
  if (motion.kind != WallMotion::Kind::Interpolated) {
    j["position"] = vec(motion.position);
    j["orientation"] = quat(motion.orientation);
  }
  if (motion.kind == WallMotion::Kind::Velocity) {
    j["motion"] = {{"type", "velocity"},
                   {"linear", vec(motion.linear)},
                   {"angular", vec(motion.angular)},
                   {"center", vec(motion.center)}};
  } else if (motion.kind == WallMotion::Kind::Interpolated) {
    OrderedJson positions = OrderedJson::array(), orientations = OrderedJson::array();
    for (const Vec3& p : motion.positions) positions.push_back(vec(p));
    for (const Quat& q : motion.orientations) orientations.push_back(quat(q));
    j["motion"] = {{"type", "interpolated"},
                   {"times", motion.times},
                   {"positions", std::move(positions)},
                   {"orientations", std::move(orientations)}};
  }
  return j;
}

std::uint8_t readBlocked(const Node& body, IntegratorKind integrator) {
  if (!body.has("blocked")) return 0;
  const Node key = body.child("blocked");
  std::uint8_t mask = 0;
  std::string problem;
  if (!parseBlockedDofs(key.string(), mask, problem)) key.fail(problem);
  if (mask != 0 && evaluatesOwnForces(integrator)) {
    key.fail(
        "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, "
        "midpoint or splitting");
  }
  return mask;
}

}  // namespace clumplab::scene_detail
