#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "Commands.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/world/World.hpp"

namespace clumplab::cli {

namespace {
// Seconds per rebuild of the neighbour list at the world's current state (the same list the world
// keeps, built afresh `count` times), by level: the broad phase alone, without the steps around it.
nlohmann::json timeRebuilds(const World& world, long long count) {
  const BroadPhaseInput input = world.broadPhaseInput();
  ThreadPool pool(world.model().settings.threads);
  NeighborList list;
  list.setSkin(world.neighbors().skin());
  ContactHistory lists = world.state().contactHistory;
  for (long long k = 0; k < count; ++k) list.rebuild(input, lists, &pool);
  const double n = static_cast<double>(count);
  return {{"bodies", list.seconds().bodies / n},
          {"pebbles", list.seconds().pebbles / n},
          {"total", (list.seconds().bodies + list.seconds().pebbles) / n}};
}
}  // namespace

int benchCommand(const std::vector<std::string>& argv) {
  const Arguments args(
      argv, {"--steps", "--threads", "--integrator", "--dt", "--spheres", "--plane", "--rebuilds"});
  const long long steps = args.integer("--steps").value_or(20000);
  std::string sceneFile;
  std::unique_ptr<World> world;
  {  // the scene is not kept beside its world: a million pebbles' peak memory is the world's
    const Scene scene = loadSceneWithOverrides(args, "bench");
    sceneFile = scene.file;
    world = buildWorld(scene);
  }
  const WorldSettings& settings = world->model().settings;
  const auto start = std::chrono::steady_clock::now();
  long long done = 0;
  while (done < steps && world->step()) ++done;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Final state figures comparable with LIGGGHTS and Yade on the benchmark scene (docs/performance.md).
  const EnergyReport e = world->energy();
  world->syncPebbles();  // the overlaps below are of the final poses
  const BodyState& s = world->bodies();
  double meanHeight = 0.0;
  for (const Vec3& x : s.position) meanHeight += x.z();
  meanHeight /= static_cast<double>(std::max<std::size_t>(1, s.size()));
  double maxOverlap = 0.0;
  const PebbleArrays& p = world->state().pebbles;
  // Spherocylinders by the closest points of their shafts (Meland et al., Cluster integration method, Fig. 2)
  // and their shafts' ends.
  const auto halfLength = [&](std::uint32_t i) { return p.hasCapsules() ? p.halfLength[i] : 0.0; };
  for (const PebblePair& pair : world->state().contactHistory.pairs) {
    const double distance =
        halfLength(pair.a) == 0.0 && halfLength(pair.b) == 0.0
            ? (p.position[pair.a] - p.position[pair.b]).norm()
            : std::sqrt(closestShaftPoints(p.position[pair.b] - p.position[pair.a], p.axis[pair.a],
                                           halfLength(pair.a), p.axis[pair.b], halfLength(pair.b))
                            .distance2);
    maxOverlap = std::max(maxOverlap, p.radius[pair.a] + p.radius[pair.b] - distance);
  }
  for (const WallPair& wp : world->state().contactHistory.wallPairs) {
    const double h = halfLength(wp.pebble);
    const Vec3 end = h == 0.0 ? p.position[wp.pebble]
                              : Vec3(p.position[wp.pebble] + (wp.end == 0 ? -h : h) * p.axis[wp.pebble]);
    maxOverlap = std::max(maxOverlap, p.radius[wp.pebble] - world->model().walls[wp.wall].clearance(end));
  }
  const auto& stages = world->stageSeconds();
  const double pebbleSteps = static_cast<double>(world->pebbleCount()) * static_cast<double>(done);
  nlohmann::json out = {{"scene", sceneFile},
                        {"steps", done},
                        {"threads", settings.threads},
                        {"integrator", std::string(integratorName(settings.integrator))},
                        {"bodies", s.size()},
                        {"pebbles", world->pebbleCount()},
                        {"wall_seconds", wall},
                        {"steps_per_second", wall > 0.0 ? static_cast<double>(done) / wall : 0.0},
                        {"pebble_steps_per_second", wall > 0.0 ? pebbleSteps / wall : 0.0},
                        {"neighbor_rebuilds", world->neighbors().rebuildCount()},
                        {"candidate_pairs", world->state().contactHistory.pairs.size()},
                        {"candidate_body_pairs", world->neighbors().bodyPairCount()},
                        // What one entry of the app's step-back history costs at the end [bytes].
                        {"checkpoint_bytes", world->checkpointBytes()},
                        {"stage_seconds",
                         {{"pebbles", stages[0]},
                          {"broad_phase", stages[1]},
                          {"broad_phase_bodies", world->neighbors().seconds().bodies},
                          {"broad_phase_pebbles", world->neighbors().seconds().pebbles},
                          {"contacts", stages[2]},
                          {"reduce", stages[3]},
                          {"integrate_total", stages[4]}}},
                        {"final",
                         {{"time", world->time()},
                          {"kinetic_energy", e.keTranslational + e.keRotational},
                          {"contacts", world->contactCount()},
                          {"pebble_contacts", world->state().pebbleContacts},
                          {"wall_contacts", world->state().wallContacts},
                          {"mean_height", meanHeight},
                          {"max_overlap", maxOverlap}}}};
  if (const long long rebuilds = args.integer("--rebuilds").value_or(0); rebuilds > 0) {
    out["rebuild_seconds"] = timeRebuilds(*world, rebuilds);
  }
  if (world->state().divergence.happened) out["diverged"] = world->state().divergence.message;
  std::cout << out.dump() << std::endl;
  if (!world->state().divergence.happened) return 0;
  // As `run`: the explanation on stderr too, naming the scene (the figures above stop at it).
  std::fprintf(stderr, "%s: %s\n", sceneFile.c_str(), world->state().divergence.message.c_str());
  return 3;
}

}  // namespace clumplab::cli
