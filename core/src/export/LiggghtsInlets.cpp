#include "LiggghtsInlets.hpp"

#include <cmath>
#include <limits>

#include "ExportChecks.hpp"
#include "core/world/Inlet.hpp"
#include "core/world/World.hpp"

namespace clumplab::exporting {

namespace {

// "region inlet<i> ..." for the inlet's box or axis-aligned cylinder.
std::string regionLine(const Scene& scene, std::size_t i, const InletRegion& r) {
  const std::string id = "inlet" + std::to_string(i);
  if (r.kind == InletRegion::Kind::Box) {
    return "region " + id + " block " + number(r.min.x()) + " " + number(r.max.x()) + " " +
           number(r.min.y()) + " " + number(r.max.y()) + " " + number(r.min.z()) + " " + number(r.max.z()) +
           " units box";
  }
  const int axis = axisOf(r.axis);
  if (axis < 0)
    refuse(scene, "inlets[" + std::to_string(i) + "].region.cylinder.axis", "LIGGGHTS",
           "region cylinder takes axes along x, y or z only; this one is " + vec(r.axis));
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;
  const int first = std::min(a, b), second = std::max(a, b);
  return "region " + id + " cylinder " + std::string(1, "xyz"[axis]) + " " + number(r.center[first]) + " " +
         number(r.center[second]) + " " + number(r.radius) + " " + number(r.center[axis] - 0.5 * r.height) +
         " " + number(r.center[axis] + 0.5 * r.height) + " units box";
}

}  // namespace

std::vector<std::uint32_t> inletTemplates(const Scene& scene) {
  std::vector<std::uint32_t> out;
  for (const Inlet& inlet : scene.inlets) {
    const InletSettings& s = inlet.settings();
    for (std::size_t k = 0; k < s.templates.size(); ++k) {
      if (s.weights[k] > 0.0) out.push_back(s.templates[k]);
    }
  }
  return out;
}

LiggghtsInlets mapLiggghtsInlets(const Scene& scene, const World& world,
                                 const std::function<std::string(std::uint32_t)>& templateFix,
                                 const std::function<long long()>& nextSeed) {
  LiggghtsInlets out;
  const double dt = scene.model.settings.timeStep;
  for (std::size_t i = 0; i < scene.inlets.size(); ++i) {
    const InletSettings& s = scene.inlets[i].settings();
    const std::string path = "inlets[" + std::to_string(i) + "]";
    const std::string id = "inlet" + std::to_string(i);
    if (scene.inlets[i].progress().state != InletState::Waiting)
      refuse(scene, path + ".progress", "LIGGGHTS",
             "an inlet that has started (" + std::string(inletStateName(scene.inlets[i].progress().state)) +
                 ", " + std::to_string(scene.inlets[i].progress().insertedCount) +
                 " bodies in) is not mapped; export the scene before it runs");
    out.lines.push_back(regionLine(scene, i, s.region));
    Vec3 lower, upper;
    s.region.bounds(lower, upper);
    out.regions.extend(lower);
    out.regions.extend(upper);

    // The distribution by count, and the mean body mass by count.
    double weightSum = 0.0, massSum = 0.0, massMin = std::numeric_limits<double>::infinity(), massMax = 0.0;
    int used = 0;
    for (std::size_t k = 0; k < s.templates.size(); ++k) {
      if (s.weights[k] <= 0.0) continue;
      const double m = world.model().templates[s.templates[k]]->mass;
      weightSum += s.weights[k];
      massSum += s.weights[k] * m;
      massMin = std::min(massMin, m);
      massMax = std::max(massMax, m);
      ++used;
    }
    const double meanMass = massSum / weightSum;
    std::string pdd = "fix " + id + "_pdd all particledistribution/discrete/numberbased " +
                      std::to_string(nextSeed()) + " " + std::to_string(used);
    for (std::size_t k = 0; k < s.templates.size(); ++k) {
      if (s.weights[k] <= 0.0) continue;
      pdd += " " + templateFix(s.templates[k]) + " " + number(s.weights[k] / weightSum);
      out.templates.push_back(s.templates[k]);
    }
    out.lines.push_back(pdd);

    // How many bodies ClumpLab inserts in all (Inlet.hpp: the next body may not pass max_mass).
    const bool oneMass = massMax <= massMin * (1.0 + 1e-12);
    std::string count = "INF";
    if (std::isfinite(s.maxMass) || s.maxCount != std::numeric_limits<std::uint64_t>::max()) {
      double n = static_cast<double>(s.maxCount);
      if (std::isfinite(s.maxMass)) n = std::min(n, std::floor(s.maxMass / meanMass * (1.0 + 1e-12)));
      count = std::to_string(static_cast<long long>(n));
      if (!oneMass && std::isfinite(s.maxMass)) {
        out.warnings.push_back(path +
                               ".max_mass: the templates' masses differ, so LIGGGHTS inserts the count " +
                               count + " that max_mass gives at the mean mass by count (" + number(meanMass) +
                               " kg); the total mass matches in expectation only");
      }
    }
    const long long every = std::max(1LL, std::llround(meanMass / (s.massRate * dt)));
    const long long start = std::llround(s.start / dt) + every;
    std::string velocity = "vel constant " + vec(s.velocity);
    if (s.velocitySpread > 0.0) {
      // A uniform ball of radius r has per-axis variance r^2/5; a uniform cube [-a, a]^3 a^2/3.
      const double a = s.velocitySpread * std::sqrt(3.0 / 5.0);
      velocity = "vel uniform " + vec(s.velocity) + " " + number(a) + " " + number(a) + " " + number(a);
      out.warnings.push_back(
          path + ".velocity_spread: LIGGGHTS spreads velocities uniformly in a cube of half-edge " +
          number(a) + " m/s (the variance of ClumpLab's ball of radius " + number(s.velocitySpread) +
          " m/s)");
    }
    out.lines.push_back("fix " + id + " all insert/rate/region seed " + std::to_string(nextSeed()) +
                        " distributiontemplate " + id + "_pdd verbose yes nparticles " + count +
                        " massrate " + number(s.massRate) + " insert_every " + std::to_string(every) +
                        " start " + std::to_string(start) + " overlapcheck yes all_in yes maxattempt " +
                        std::to_string(s.attempts) + " " + velocity +
                        " orientation random omega constant 0 0 0 region " + id + " ntry_mc 100000");
    out.warnings.push_back(
        path +
        ": LIGGGHTS inserts at its own random points and orientations, so the bodies differ from "
        "ClumpLab's (the rate " +
        number(s.massRate) + " kg/s, the templates' shares by count and the total of " + count +
        " bodies are the same); it inserts every " + std::to_string(every) +
        " steps (about one body each, the first when ClumpLab's is due), keeps whole pebbles inside the "
        "region (ClumpLab tests pebble centres) and has no counterpart of retry_interval (what it does when "
        "the region is full is "
        "LIGGGHTS's own)");
  }
  return out;
}

}  // namespace clumplab::exporting
