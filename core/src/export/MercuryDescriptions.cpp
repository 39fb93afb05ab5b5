#include "MercuryDescriptions.hpp"

#include <cmath>
#include <limits>

#include "ExportChecks.hpp"
#include "MeshWallExport.hpp"
#include "core/world/Inlet.hpp"

namespace clumplab::exporting {

namespace {

std::string quat(const Quat& q) {
  return number(q.w()) + " " + number(q.x()) + " " + number(q.y()) + " " + number(q.z());
}

}  // namespace

std::string describeMeshWall(const Scene& scene, std::size_t w) {
  const MeshWall& wall = *scene.model.walls[w].mesh;
  const WallPose pose = wall.poseAt(0.0);
  const WallMotion& m = wall.motion;
  const std::string head = "wall " + std::to_string(w);
  std::string out = head + " mesh file " + meshWallFileName(w) + " triangles " +
                    std::to_string(wall.shape->mesh().size()) + " pose0 " + vec(pose.position) + " " +
                    quat(pose.orientation) + " motion ";
  if (m.kind == WallMotion::Kind::None) return out + "none\n";
  if (m.kind == WallMotion::Kind::Velocity)
    return out + "velocity linear " + vec(m.linear) + " angular " + vec(m.angular) + " center " +
           vec(m.center) + "\n";
  out += "interpolated keys " + std::to_string(m.times.size()) + "\n";
  for (std::size_t k = 0; k < m.times.size(); ++k)
    out += head + " key " + number(m.times[k]) + " " + vec(m.positions[k]) + " " + quat(m.orientations[k]) +
           "\n";
  return out;
}

std::string describeInlet(const Scene& scene, std::size_t i, const std::vector<std::string>& folders) {
  const InletSettings& s = scene.inlets[i].settings();
  std::string out = "inlet " + std::to_string(i);
  if (s.region.kind == InletRegion::Kind::Box) {
    out += " box min " + vec(s.region.min) + " max " + vec(s.region.max);
  } else {
    out += " cylinder center " + vec(s.region.center) + " axis " + vec(s.region.axis) + " radius " +
           number(s.region.radius) + " height " + number(s.region.height);
  }
  out += " templates " + std::to_string(s.templates.size());
  for (std::size_t k = 0; k < s.templates.size(); ++k)
    out += " " + folders[s.templates[k]] + " " + number(s.weights[k]);
  out += " mass_rate " + number(s.massRate) + " max_mass " +
         (std::isfinite(s.maxMass) ? number(s.maxMass) : std::string("none")) + " max_count " +
         (s.maxCount == std::numeric_limits<std::uint64_t>::max() ? std::string("none")
                                                                  : std::to_string(s.maxCount)) +
         " velocity " + vec(s.velocity) + " velocity_spread " + number(s.velocitySpread) + " seed " +
         std::to_string(s.seed) + " start " + number(s.start) + " attempts " + std::to_string(s.attempts) +
         " retry_interval " + number(s.retryInterval) + "\n";
  return out;
}

}  // namespace clumplab::exporting
