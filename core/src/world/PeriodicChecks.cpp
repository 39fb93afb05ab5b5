#include "core/world/PeriodicChecks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clumplab {

namespace {
constexpr const char* kAxisNames = "xyz";
// A normal component below this counts as zero (normals are unit vectors).
constexpr double kPerpendicular = 1e-12;

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

std::string vector(const Vec3& v) {
  char text[96];
  std::snprintf(text, sizeof text, "[%.6g, %.6g, %.6g]", v.x(), v.y(), v.z());
  return text;
}
}  // namespace

double minimumPeriodicLength(double largestBodyRadius, double skin) {
  return 2.0 * (2.0 * largestBodyRadius + skin);
}

double resolvedSkin(double skinSetting, const std::vector<TemplatePtr>& templates) {
  if (skinSetting > 0.0) return skinSetting;
  double r = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : templates) r = std::min(r, t->minPebbleRadius);
  return std::isfinite(r) ? 0.4 * r : 1e-4;
}

std::string periodicLengthProblem(const PeriodicBox& box, const std::vector<TemplatePtr>& templates,
                                  double skin) {
  if (!box.any() || templates.empty()) return "";
  const auto largest = std::max_element(templates.begin(), templates.end(), [](const auto& a, const auto& b) {
    return a->boundingRadius < b->boundingRadius;
  });
  const double rho = (*largest)->boundingRadius;
  const double needed = minimumPeriodicLength(rho, skin);
  for (int a = 0; a < 3; ++a) {
    if (!box.periodic[a] || box.length[a] >= needed) continue;
    const char axis = kAxisNames[a];
    return std::string("the periodic length along ") + axis + " is " + number(box.length[a]) +
           " m; it must be at least " + number(needed) + " m = 2 x (2 x " + number(rho) +
           " m, the bounding radius of template \"" + (*largest)->name + "\", + " + number(skin) +
           " m of Verlet skin), so that two bodies meet through one periodic image only (make the box "
           "longer along " +
           axis + ", or the bodies smaller)";
  }
  return "";
}

std::string periodicWallProblem(const PeriodicBox& box, const Wall& wall, std::size_t index) {
  if (!box.any()) return "";
  const std::string which = "wall " + std::to_string(index);
  if (wall.kind == Wall::Kind::Mesh) {
    return which +
           " (a mesh) cannot be combined with periodic boundaries: walls must be planes parallel to "
           "every periodic axis";
  }
  if (wall.kind == Wall::Kind::SphereCavity) {
    return which +
           " (a spherical cavity) cannot be combined with periodic boundaries: walls must be planes "
           "parallel to every periodic axis";
  }
  for (int a = 0; a < 3; ++a) {
    if (!box.periodic[a] || std::abs(wall.normal[a]) < kPerpendicular) continue;
    return which + " (a " + (wall.kind == Wall::Kind::Membrane ? "membrane" : "plane") + " with normal " +
           vector(wall.normal) + ") crosses the periodic " + kAxisNames[a] +
           " axis: walls must be parallel to every periodic axis (e.g. a floor facing +z with x and y "
           "periodic; a \"box\" wall has faces across every axis, so use planes for the open axes)";
  }
  return "";
}

std::string periodicPlaneProblem(const PeriodicBox& box, const PlaneConstraint& plane) {
  if (!box.any() || !plane.enabled) return "";
  for (int a = 0; a < 3; ++a) {
    if (!box.periodic[a] || std::abs(plane.normal[a]) < kPerpendicular) continue;
    return std::string("the 2D mode's plane (normal ") + vector(plane.normal) +
           ") must contain every periodic axis, and " + kAxisNames[a] +
           " is periodic: drop it from the periodic axes or choose a plane along it";
  }
  return "";
}

std::string periodicProblem(const PeriodicBox& box, const std::vector<TemplatePtr>& templates,
                            const std::vector<Wall>& walls, const PlaneConstraint& plane, double skin) {
  if (!box.any()) return "";
  for (int a = 0; a < 3; ++a) {
    if (box.periodic[a] &&
        !(std::isfinite(box.length[a]) && box.length[a] > 0.0 && std::isfinite(box.lower[a]))) {
      return std::string("the periodic box needs a finite corner and a positive length along ") +
             kAxisNames[a];
    }
  }
  if (std::string p = periodicLengthProblem(box, templates, skin); !p.empty()) return p;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (std::string p = periodicWallProblem(box, walls[w], w); !p.empty()) return p;
  }
  return periodicPlaneProblem(box, plane);
}

}  // namespace clumplab
