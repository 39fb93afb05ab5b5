#include "core/scene/SphereSwitch.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace clumplab {

std::string_view sphereKindName(SphereKind kind) {
  return kind == SphereKind::Bounding ? "bounding" : "volume";
}

namespace {
double volumeOf(const ClumpTemplate& t) {
  if (t.volume > 0.0) return t.volume;
  if (t.density > 0.0) return t.mass / t.density;
  return 0.0;
}

}  // namespace

ClumpTemplate sphereTemplate(const ClumpTemplate& clump, SphereKind kind) {
  double radius = clump.boundingRadius;
  if (kind == SphereKind::VolumeEquivalent && volumeOf(clump) > 0.0) {
    radius = std::cbrt(3.0 * volumeOf(clump) / (4.0 * std::numbers::pi));
  }
  ClumpTemplate s;
  s.name = clump.name + " (sphere)";
  s.pebbles = {{Vec3::Zero(), radius}};
  s.mass = clump.mass;
  s.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  s.density = s.mass / s.volume;
  s.principalMoments = Vec3::Constant(0.4 * clump.mass * radius * radius);  // uniform ball: 2/5 m r^2
  s.rotationFromInput = clump.rotationFromInput;
  s.centerOfMassInInput = clump.centerOfMassInInput;
  s.boundingRadius = radius;
  s.minPebbleRadius = radius;
  s.inertiaMethod = "sphere";
  s.point = clump.point;  // at the centre of mass: the same for the sphere
  return s;
}

void switchToSpheres(Scene& scene, SphereKind kind) {
  for (TemplatePtr& t : scene.model.templates)
    t = std::make_shared<const ClumpTemplate>(sphereTemplate(*t, kind));
  scene.templateSources.assign(scene.model.templates.size(), TemplateSource{});
  scene.description = "The clumps of this scene as " +
                      std::string(kind == SphereKind::Bounding ? "bounding" : "volume-equivalent") +
                      " spheres. " + scene.description;
}

}  // namespace clumplab
