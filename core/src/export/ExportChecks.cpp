#include "ExportChecks.hpp"
#include "core/world/World.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace clumplab::exporting {

void refuseCommonUnsupported(const Scene& scene, const World& world, const std::string& engine) {
  const WorldSettings& s = scene.model.settings;
  if (s.fields.electric != Vec3::Zero() || s.fields.magnetic != Vec3::Zero())
    refuse(scene, "fields", engine, "uniform electric and magnetic fields have no counterpart there");
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.pointOf(b).any())
      refuse(scene, "bodies[" + std::to_string(b) + "]", engine,
             "charges, dipoles and point masses (PaLa's field forces) have no counterpart there");
  }
  if (s.plane.enabled) refuse(scene, "plane", engine, "the 2D mode (motion held in a plane) is not mapped");
  if (s.linearDamping != 0.0 || s.angularDamping != 0.0)
    refuse(scene, "damping", engine, "global viscous damping of bodies is not mapped (set it to 0)");
  if (!s.gyroscopic)
    refuse(scene, "gyroscopic", engine, "Euler's equations without the gyroscopic term are not mapped");
  for (const TemplatePtr& t : world.model().templates) {
    const bool capsule =
        std::any_of(t->pebbles.begin(), t->pebbles.end(), [](const Pebble& p) { return !p.isSphere(); });
    if (capsule)
      refuse(scene, "templates." + t->name, engine,
             "spherocylinder pebbles are not spheres; only clumps of spheres are exported");
  }
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    if (scene.bodies[b].blocked != 0)
      refuse(scene, "bodies[" + std::to_string(b) + "].blocked", engine,
             "blocked degrees of freedom (a body held on some axes) are not mapped");
  }
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    if (scene.model.walls[w].kind == Wall::Kind::Membrane)
      refuse(scene, "walls[" + std::to_string(w) + "]", engine,
             "membranes (size-selective planes) are not mapped");
  }
}

int axisOf(const Vec3& normal) {
  for (int a = 0; a < 3; ++a) {
    if (std::abs(std::abs(normal[a]) - 1.0) < 1e-12) return a;
  }
  return -1;
}

void makeFolder(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (!std::filesystem::is_directory(folder, ec))
    throw std::runtime_error(folder.string() + ": cannot create the export folder");
}

AtomicOutputFile openOutput(const std::filesystem::path& path) {
  return AtomicOutputFile(path.string());
}

std::string number(double x) {
  // The shortest of 15, 16 and 17 significant digits that reads back as x.
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    if (digits == 17 || std::strtod(buffer, nullptr) == x) break;
  }
  return buffer;
}

std::string vec(const Vec3& v, const char* separator) {
  return number(v.x()) + separator + number(v.y()) + separator + number(v.z());
}

}  // namespace clumplab::exporting
