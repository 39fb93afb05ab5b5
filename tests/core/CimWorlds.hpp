#pragma once
// Worlds for the tests of the cim and rk4 integrators (Meland et al., Cluster integration method): gases of
// the paper's spherocylinders (radius 1 mm, shaft 4 mm, density 2700) and of clumps, placed at random without
// overlaps (by their true surface distance, ParticleModel::surfaceDistance), in a box that is
// periodic or walled; and a collision of two of the spherocylinders in free space (tst_cim_world and
// tst_cim_world_contract).
#include <array>
#include <memory>
#include <random>
#include <vector>

#include "TestSupport.hpp"
#include "core/base/OrderedDraws.hpp"
#include "core/cim/WorldParticleModel.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/clump/Spherocylinder.hpp"

namespace clumplab::test {

inline TemplatePtr paperRod() {
  return std::make_shared<const ClumpTemplate>(makeSpherocylinderTemplate("rod", 1e-3, 4e-3, 2700.0));
}

inline ContactModel elasticSpring(double stiffness = 1e4) {
  ContactModel c;
  c.kind = ContactModel::Kind::Linear;
  c.linear.stiffness = stiffness;
  c.linear.dampingFromRestitution = false;
  c.linear.damping = 0.0;
  c.linear.friction = 0.0;
  return c;
}

struct GasSpec {
  IntegratorKind kind = IntegratorKind::Cim;
  double timeStep = 1e-3;                              // [s]
  std::size_t count = 40;                              // bodies
  double length = 0.02;                                // box edge [m], box [0, length]^3
  bool periodic = true;                                // false: walls on every axis
  std::array<bool, 3> walled = {false, false, false};  // walls on these axes (and not periodic there)
  ContactModel contact = elasticSpring();              // linear spring 1e4 N/m, no dashpot, no friction
  double speed = 0.4;                                  // typical translational speed [m/s]
  double spin = 150.0;                                 // typical spin perpendicular to the shaft [rad/s]
  unsigned seed = 1;
  double gap = 0.0;                                   // least surface distance at the start [m]
  std::vector<TemplatePtr> templates = {paperRod()};  // bodies cycle through them
  CimSettings cim = [] {
    CimSettings c;
    c.buffer = 0.6e-3;
    return c;
  }();
  int threads = 1;
};

// Surface distance of two bodies of templates a (at xa, qa) and b [m]: over their pebble pairs, the
// distance of the shafts (Meland et al., Cluster integration method, Fig. 2; centres for spheres) less the
// radii.
inline double bodyDistance(const ClumpTemplate& a, const Vec3& xa, const Quat& qa, const ClumpTemplate& b,
                           const Vec3& xb, const Quat& qb) {
  double best = std::numeric_limits<double>::infinity();
  for (const Pebble& pa : a.pebbles) {
    for (const Pebble& pb : b.pebbles) {
      const Vec3 ca = xa + qa * pa.center, cb = xb + qb * pb.center;
      const ShaftClosestPoints c =
          closestShaftPoints(cb - ca, qa * pa.axis, pa.halfLength, qb * pb.axis, pb.halfLength);
      best = std::min(best, std::sqrt(c.distance2) - pa.radius - pb.radius);
    }
  }
  return best;
}

inline std::unique_ptr<World> makeGas(const GasSpec& spec) {
  WorldSettings s;
  s.timeStep = spec.timeStep;
  s.gravity = Vec3::Zero();
  s.integrator = spec.kind;
  s.cim = spec.cim;
  s.threads = spec.threads;
  std::vector<Wall> walls;
  std::array<bool, 3> walled = spec.walled;
  for (bool& w : walled) w = w || !spec.periodic;
  s.periodic.lower = Vec3::Zero();
  s.periodic.length = Vec3::Constant(spec.length);
  for (int a = 0; a < 3; ++a) {
    s.periodic.periodic[a] = !walled[a];
    if (!walled[a]) continue;
    walls.push_back(Wall::plane(Vec3::Zero(), Vec3::Unit(a)));
    walls.push_back(Wall::plane(Vec3::Constant(spec.length), -Vec3::Unit(a)));
  }
  auto world = std::make_unique<World>(s, spec.contact, walls, spec.templates);
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (std::size_t i = 0; i < spec.count; ++i) {
    const auto t = static_cast<std::uint32_t>(i % spec.templates.size());
    const double reach = spec.templates[t]->boundingRadius;
    for (int attempt = 0;; ++attempt) {
      if (attempt > 200000) qFatal("the box is too full");
      Vec3 x;
      for (int a = 0; a < 3; ++a) {
        const double margin = walled[a] ? reach + spec.gap : 0.0;
        x[a] = margin + (spec.length - 2.0 * margin) * uniform(rng);
      }
      const Quat q(drawVector4LastFirst([&] { return normal(rng); }).normalized());
      // The true surface distance to every body placed.
      bool clear = true;
      const BodyState& b = world->bodies();
      for (std::size_t j = 0; j < b.size() && clear; ++j) {
        const Vec3 sep = s.periodic.minimumImage(x - b.position[j]);
        const ClumpTemplate& other = *spec.templates[b.templateIndex[j]];
        if (sep.norm() > reach + other.boundingRadius + spec.gap) continue;
        clear = bodyDistance(other, Vec3::Zero(), b.orientation[j], *spec.templates[t], sep, q) > spec.gap;
      }
      if (!clear) continue;
      // Spin perpendicular to the shaft (the paper: none about it) for every template alike.
      Vec3 w = spec.spin * drawVec3LastFirst([&] { return normal(rng); }) / std::sqrt(3.0);
      const Vec3 axis = q * Vec3::UnitX();  // a spherocylinder's shaft is body axis 1
      if (isSpherocylinder(*spec.templates[t])) w -= w.dot(axis) * axis;
      world->addBody(
          {t, x, q, spec.speed * drawVec3LastFirst([&] { return normal(rng); }) / std::sqrt(3.0), w});
      break;
    }
  }
  return world;
}

// Two spherocylinders collide off-centre and crossed, spinning, in free space.
inline std::unique_ptr<World> collision(IntegratorKind kind, double dt, const ContactModel& contact,
                                        double rtol = 1e-5) {
  WorldSettings s = freeSpace(kind, dt);
  s.cim.buffer = 0.6e-3;
  s.cim.relativeTolerance = rtol;
  auto world = std::make_unique<World>(s, contact, std::vector<Wall>{}, std::vector<TemplatePtr>{paperRod()});
  world->addBody({0, Vec3(-4e-3, 0.0, 0.0), Quat(Eigen::AngleAxisd(0.4, Vec3(0, 0, 1))), Vec3(0.4, 0.0, 0.0),
                  Vec3(0.0, 40.0, 30.0)});
  world->addBody({0, Vec3(4e-3, 1.5e-3, 0.5e-3), Quat(Eigen::AngleAxisd(1.3, Vec3(0, 1, 1).normalized())),
                  Vec3(-0.4, 0.0, 0.0), Vec3(0.0, 0.0, 0.0)});
  return world;
}

// Largest distance between the bodies' positions of two worlds [m].
inline double positionDifference(const World& a, const World& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.bodies().size(); ++i) {
    worst = std::max(
        worst,
        a.model().settings.periodic.minimumImage(a.bodies().position[i] - b.bodies().position[i]).norm());
  }
  return worst;
}

// Runs `steps` steps; false (with a message) on a divergence.
inline bool runSteps(World& world, long steps) {
  for (long n = 0; n < steps; ++n) {
    if (!world.step()) {
      qWarning("%s", world.state().divergence.message.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace clumplab::test
