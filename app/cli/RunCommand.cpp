#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "Commands.hpp"
#include "core/export/VtkSeriesWriter.hpp"
#include "core/io/OutputCsv.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/Trajectory.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/scene/ScenePlane.hpp"
#include "core/world/World.hpp"
#include "shapes/SceneLoading.hpp"

namespace clumplab::cli {

nlohmann::json vectorJson(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}

nlohmann::json energyJson(const EnergyReport& e) {
  return {{"time", e.time},
          {"ke_translational", e.keTranslational},
          {"ke_rotational", e.keRotational},
          {"pe_gravity", e.peGravity},
          {"pe_elastic", e.peElastic},
          {"pe_fields", e.peFields},
          {"dissipated", e.dissipated},
          {"wall_work", e.wallWork},
          {"inserted", e.inserted},
          {"total", e.total()},
          {"momentum", vectorJson(e.momentum)},
          {"angular_momentum", vectorJson(e.angularMomentum)}};
}

// Per wall of the world (a box is six planes: -x, +x, -y, +y, -z, +z), its kind and the momentum the
// bodies transferred to it [N s].
nlohmann::json wallImpulsesJson(const World& world) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t w = 0; w < world.model().walls.size(); ++w) {
    const Wall::Kind kind = world.model().walls[w].kind;
    out.push_back({{"wall", w},
                   {"type", kind == Wall::Kind::Plane      ? "plane"
                            : kind == Wall::Kind::Membrane ? "membrane"
                            : kind == Wall::Kind::Mesh     ? "mesh"
                                                           : "sphere"},
                   {"impulse", vectorJson(world.state().wallImpulse[w])}});
  }
  return out;
}

// Per inlet (Inlet.hpp): where it stands, what it inserted, and when it finished (null: not yet).
nlohmann::json inletsJson(const World& world) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < world.state().inlets.size(); ++i) {
    const Inlet& inlet = world.state().inlets[i];
    const InletProgress& p = inlet.progress();
    const auto timeOrNull = [](double t) {
      return std::isnan(t) ? nlohmann::json(nullptr) : nlohmann::json(t);
    };
    out.push_back({{"inlet", i},
                   {"state", inletStateName(p.state)},
                   {"inserted_mass", p.insertedMass},
                   {"inserted_count", p.insertedCount},
                   {"finished_at", timeOrNull(p.finishedAt)},
                   {"owed_mass", inlet.owedMass(world.time())},
                   {"failed_tries", p.failedTries},
                   {"full_since", timeOrNull(p.fullSince)}});
  }
  return out;
}

Scene loadSceneWithOverrides(const Arguments& args, const char* command) {
  if (args.positional().size() != 1) {
    throw UsageError(std::string("expected exactly one scene file: clumplab-cli ") + command + " SCENE.json");
  }
  SceneLoadOptions options = shapes::sceneLoadOptions();
  if (const auto spheres = args.text("--spheres")) {
    if (*spheres == "bounding") {
      options.spheres = SphereKind::Bounding;
    } else if (*spheres == "volume") {
      options.spheres = SphereKind::VolumeEquivalent;
    } else {
      throw UsageError("--spheres: expected bounding or volume");
    }
  }
  if (const auto plane = args.text("--plane")) {
    // PaLa's 2D / 3D switch: "3d", or the coordinate plane through the middle of the bodies as the
    // scene places them in 3D.
    const int axis = *plane == "yz" ? 0 : *plane == "xz" ? 1 : *plane == "xy" ? 2 : -1;
    if (*plane != "3d" && axis < 0) throw UsageError("--plane: expected xy, xz, yz or 3d");
    options.plane = PlaneConstraint{};
    if (axis >= 0) options.plane = planeThroughBodies(loadScene(args.positional()[0], options), axis);
  }
  Scene scene = loadScene(args.positional()[0], options);
  for (const std::string& note : scene.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
  if (const auto name = args.text("--integrator")) {
    const auto kind = integratorFromName(*name);
    if (!kind)
      throw UsageError("unknown integrator \"" + *name +
                       "\" (use leapfrog, midpoint, splitting, cim or rk4)");
    scene.model.settings.integrator = *kind;
  }
  if (const auto dt = args.number("--dt")) {
    const ModelParameter& step = modelParameter("time_step");
    if (!step.range.contains(*dt))
      throw UsageError("--dt " + step.range.complaint(*dt, std::string(step.unit)));
    scene.model.settings.timeStep = *dt;
  }
  if (const auto threads = args.integer("--threads")) {
    if (*threads < 1 || *threads > 256) throw UsageError("--threads must lie in [1, 256]");
    scene.model.settings.threads = static_cast<int>(*threads);
  }
  return scene;
}

namespace {

// --steps, or --time, or the scene's duration, or 1000 steps.
long long stepsToRun(const Arguments& args, const Scene& scene) {
  if (args.has("--steps") && args.has("--time")) throw UsageError("give --steps or --time, not both");
  const double dt = scene.model.settings.timeStep;
  if (const auto s = args.integer("--steps")) return *s;
  if (const auto t = args.number("--time")) {
    if (*t < 0.0) throw UsageError("--time must not be negative");
    return std::llround(*t / dt);
  }
  if (scene.duration > 0.0) return std::llround(scene.duration / dt);
  return 1000;
}

// The files a run writes every --every steps: energies, states, the trajectory (poses and
// velocities, exactly, with the scene embedded, for replay) and ParaView's (pebbles, bodies, walls
// per output step and a .pvd index).
class RunOutputs {
 public:
  // Opens the CSV files before any work, so that a bad path fails fast.
  RunOutputs(const Arguments& args, const Scene& scene) {
    if (const auto p = args.text("--energy")) {
      const bool anyPoint = std::any_of(scene.bodyPoints.begin(), scene.bodyPoints.end(),
                                        [](const PointProperties& point) { return point.any(); });
      energy_.emplace(*p, EnergyCsvExtras::forScene(scene.model.settings, scene.model.walls, anyPoint));
    }
    if (const auto p = args.text("--states")) states_.emplace(*p);
  }

  // The outputs that need the world.
  void open(const Arguments& args, const Scene& scene, const World& world) {
    if (const auto p = args.text("--trajectory")) {
      const std::string folder = std::filesystem::path(*p).parent_path().string();
      trajectory_.emplace(*p, sceneToJson(sceneFromWorld(world, scene), folder.empty() ? "." : folder),
                          templateKeys(world.model().templates));
    }
    if (const auto dir = args.text("--vtk")) vtk_.emplace(*dir);
  }

  void write(World& world) {
    if (vtk_) vtk_->write(world);
    if (energy_) energy_->write(world.energy(), world.state().wallImpulse);
    if (states_) states_->write(world.time(), world.bodies());
    if (trajectory_) trajectory_->append(world.time(), world.stepCount(), world.bodies());
  }

  void close() {
    if (trajectory_) trajectory_->close();
  }

  // Where the ParaView files went, for the summary (null without --vtk).
  nlohmann::json vtkJson() const {
    if (!vtk_) return nullptr;
    return {{"folder", vtk_->folder()},
            {"steps", vtk_->stepsWritten()},
            {"index", (std::filesystem::path(vtk_->folder()) / "clumplab.pvd").string()}};
  }

 private:
  std::optional<EnergyCsvWriter> energy_;
  std::optional<StateCsvWriter> states_;
  std::optional<TrajectoryWriter> trajectory_;
  std::optional<VtkSeriesWriter> vtk_;
};

// The run's summary: what was done, in how long, and the energy at its end.
nlohmann::json runSummary(World& world, const Scene& scene, long long done, double wallSeconds) {
  return {{"steps", done},
          {"time", world.time()},
          {"wall_seconds", wallSeconds},
          {"bodies", world.bodies().size()},
          {"pebbles", world.pebbleCount()},
          {"contacts", world.contactCount()},
          {"pebble_steps_per_second", wallSeconds > 0.0 ? static_cast<double>(world.pebbleCount()) *
                                                              static_cast<double>(done) / wallSeconds
                                                        : 0.0},
          {"integrator", std::string(integratorName(scene.model.settings.integrator))},
          {"time_step", scene.model.settings.timeStep},
          {"energy", energyJson(world.energy())},
          {"wall_impulses", wallImpulsesJson(world)}};
}

}  // namespace

int runCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--steps", "--time", "--energy", "--states", "--trajectory", "--every",
                              "--integrator", "--dt", "--threads", "--spheres", "--plane", "--vtk"});
  const Scene scene = loadSceneWithOverrides(args, "run");
  const long long steps = stepsToRun(args, scene);
  const long long every = args.integer("--every").value_or(100);
  if (every < 1) throw UsageError("--every must be at least 1");
  RunOutputs outputs(args, scene);
  auto world = buildWorld(scene);
  outputs.open(args, scene, *world);
  outputs.write(*world);
  const auto start = std::chrono::steady_clock::now();
  long long done = 0;
  bool ok = true;
  for (; done < steps; ++done) {
    if (!world->step()) {
      ok = false;
      break;
    }
    if ((done + 1) % every == 0) outputs.write(*world);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!ok) outputs.write(*world);
  outputs.close();
  nlohmann::json summary = runSummary(*world, scene, done, wall);
  if (nlohmann::json vtk = outputs.vtkJson(); !vtk.is_null()) summary["vtk"] = vtk;
  if (!world->state().inlets.empty()) summary["inlets"] = inletsJson(*world);
  if (!ok) {
    summary["diverged"] = world->state().divergence.message;
    std::cout << summary.dump() << std::endl;
    std::fprintf(stderr, "%s: %s\n", scene.file.c_str(), world->state().divergence.message.c_str());
    return 3;
  }
  std::cout << summary.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
