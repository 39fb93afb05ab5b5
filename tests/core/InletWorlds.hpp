#pragma once
// The world the inlet tests pour into (tst_inlet, tst_inlet_state): a tall box (4 x 4 x 30 cm) with an
// inlet in its top that pours T-bars and dumbbells (makeWorld), with what the tests vary in a Setup.
#include <limits>
#include <memory>
#include <vector>

#include "TestSupport.hpp"
#include "core/world/Inlet.hpp"
#include "core/world/World.hpp"

namespace clumplab::test {

// A dumbbell of two 1 mm pebbles 3 mm apart: a second template, lighter than the T-bar.
inline std::vector<Pebble> dumbbellPebbles() {
  return {Pebble{Vec3(0, 0, -1.5e-3), 1e-3}, Pebble{Vec3(0, 0, 1.5e-3), 1e-3}};
}

struct Setup {
  double massRate = 2e-3;  // [kg/s]
  double maxMass = std::numeric_limits<double>::infinity();
  std::uint64_t maxCount = std::numeric_limits<std::uint64_t>::max();
  InletRegion region;
  Vec3 gravity = Vec3(0, 0, -9.81);
  Vec3 velocity = Vec3(0, 0, -0.5);
  double spread = 0.1;
  int threads = 1;
  double dt = 2e-5;
  std::vector<double> weights = {2.0, 1.0};
  double friction = 0.3;
  IntegratorKind integrator = IntegratorKind::Leapfrog;
};

// A tall box (4 x 4 x 30 cm) with an inlet in its top that pours T-bars and dumbbells.
inline std::unique_ptr<World> makeWorld(const Setup& s) {
  WorldSettings settings;
  settings.timeStep = s.dt;
  settings.gravity = s.gravity;
  settings.threads = s.threads;
  settings.integrator = s.integrator;
  auto world = std::make_unique<World>(
      settings, linearContact(2e3, 0.5, s.friction), Wall::box(Vec3(-0.02, -0.02, 0), Vec3(0.02, 0.02, 0.3)),
      std::vector<TemplatePtr>{templateFromPebbles(tbarPebbles(), 2500.0, "tbar"),
                               templateFromPebbles(dumbbellPebbles(), 2500.0, "dumbbell")});
  InletSettings in;
  in.region = s.region;
  if (in.region.max == in.region.min) {
    in.region.min = Vec3(-0.018, -0.018, 0.24);
    in.region.max = Vec3(0.018, 0.018, 0.29);
  }
  in.templates = {0, 1};
  in.weights = s.weights;
  in.massRate = s.massRate;
  in.maxMass = s.maxMass;
  in.maxCount = s.maxCount;
  in.velocity = s.velocity;
  in.velocitySpread = s.spread;
  in.seed = 7;
  world->addInlet(Inlet(in));
  return world;
}

}  // namespace clumplab::test
