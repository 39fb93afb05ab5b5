// clumplab-cli cim-table: the cluster integration paper's Table 1. For each stiffness kn the constant RK4
// step dt_RK4 (the DEM baseline) and the minimum RKF step dt_min of the cluster integration method are tuned:
// the largest step that keeps the relative energy error below the threshold (0.1%) over the run (0.1 s),
// found by doubling or halving from a guess and then bisecting on a log scale (--criterion max: at
// every one of --samples instants; final: at the end only, the paper's wording). Both then run once
// more for the wall times; the speed-up is their ratio. The runs use the drivers directly
// (Rk4Baseline, ClusterIntegration) on the scene's bodies with the World's contact model
// (WorldParticleModel), timing only the integration: energy samples are taken between intervals
// and not timed. Every choice depends on the energy errors only, so the steps chosen are the same
// on every machine; the times are this machine's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "Commands.hpp"
#include "core/base/Errors.hpp"
#include "core/cim/ClusterIntegration.hpp"
#include "core/cim/Rk4Baseline.hpp"
#include "core/cim/WorldParticleModel.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/world/World.hpp"

namespace clumplab::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Meland et al., Cluster integration method, Table 1: kn [N/m], dt_RK4 [s], RK4 [s], dt_min [s], RK-F [s],
// speed-up.
struct PaperRow {
  double stiffness, rk4Step, rk4Seconds, minStep, cimSeconds, speedup;
};
constexpr PaperRow kPaper[] = {{5e3, 4.6e-5, 21, 3.3e-5, 17, 1.2},      {1e4, 3.0e-5, 29, 2.6e-5, 17, 1.7},
                               {2e4, 2.3e-5, 39, 1.6e-5, 17, 2.3},      {3e4, 1.7e-5, 53, 1.4e-5, 20, 2.7},
                               {4e4, 1.5e-5, 60, 1.2e-5, 20, 3.0},      {6e4, 1.2e-5, 86, 1.0e-5, 20, 4.3},
                               {8e4, 1.1e-5, 89, 0.93e-5, 18, 4.9},     {1e5, 1.0e-5, 99, 0.77e-5, 20, 4.95},
                               {1.5e5, 0.81e-5, 128, 0.60e-5, 20, 6.4}, {2e5, 0.7e-5, 149, 0.52e-5, 21, 7.1},
                               {5e5, 0.45e-5, 241, 0.34e-5, 21, 11.5}};

const PaperRow* paperRow(double stiffness) {
  for (const PaperRow& row : kPaper) {
    if (std::abs(row.stiffness / stiffness - 1.0) < 1e-9) return &row;
  }
  return nullptr;
}

// The system of one stiffness: the scene's bodies, its model of the world with kn.
struct System {
  Scene scene;  // with kn
  std::shared_ptr<const cim::WorldParticles> particles;
  cim::ParticleModel model;
  cim::RigidBodySet start;
  double buffer = 0.0;
  double energy = 0.0;  // kinetic + elastic at the start [J]
  cim::ClusterStepSettings cimSettings;
};

double energyOf(const System& s, const cim::RigidBodySet& state) {
  double kinetic = 0.0;
  for (std::size_t i = 0; i < state.size(); ++i) kinetic += cim::kineticEnergy(state, i, s.model.inertia[i]);
  return kinetic + cim::summarizeContacts(*s.particles, s.model, state).elasticEnergy;
}

System systemFor(const Scene& scene, double stiffness) {
  Scene copy = scene;
  copy.model.contact.linear.stiffness = stiffness;
  const std::unique_ptr<World> world = buildWorld(copy);
  System s;
  s.scene = copy;
  s.particles = cim::describeWorld({world->model(), world->bodies(), world->state().loads});
  s.model = cim::makeParticleModel(s.particles);
  s.start = cim::bodySetOf(world->bodies());
  s.buffer = cim::resolveBuffer(copy.model.settings.cim.buffer, copy.model.templates);
  s.energy = energyOf(s, s.start);
  s.cimSettings.buffer = s.buffer;
  s.cimSettings.rkf.relativeTolerance = copy.model.settings.cim.relativeTolerance;
  s.cimSettings.rkf.absoluteTolerance = copy.model.settings.cim.absoluteTolerance;
  s.cimSettings.rkf.maxStep = copy.model.settings.cim.maxStep;
  return s;
}

// One run over `duration` in `samples` intervals, the energy measured after each.
struct Run {
  double step = 0.0;            // the step tried: dt_RK4 or dt_min [s]
  double actualStep = 0.0;      // RK4: the constant step used (the interval / a whole number) [s]
  double maxError = 0.0;        // max |E/E0 - 1| over the samples reached
  double finalError = 0.0;      // |E/E0 - 1| at the end
  double seconds = 0.0;         // wall time of the integration alone
  bool completed = false;       // ran to the end (not stopped above the threshold or failed)
  std::size_t steps = 0;        // RK4 steps, or accepted RKF steps
  std::size_t evaluations = 0;  // whole-system (RK4) or cluster (CIM) force evaluations
  std::size_t lists = 0;        // neighbour lists (RK4) or cluster lists (CIM) built
  std::size_t freeMoves = 0;    // CIM: analytic moves of free particles
  std::size_t forcedSteps = 0;  // CIM: steps accepted at dt_min above the tolerance
  bool finalOnly = false;
  bool passed(double threshold) const { return completed && (finalOnly ? finalError : maxError) < threshold; }
};

struct RunOptions {
  double duration = 0.1;
  int samples = 100;
  double threshold = 1e-3;
  // false: the error must stay below the threshold at every sample (the default, stricter); true:
  // only at the end, as the paper words it ("less than 0.1% error after 0.1 s").
  bool finalOnly = false;
  ThreadPool* pool = nullptr;
};

template <class Advance>
void sampleRun(const System& sys, const RunOptions& o, Run& run, cim::RigidBodySet& state,
               Advance&& advance) {
  const double interval = o.duration / o.samples;
  run.completed = true;
  run.finalOnly = o.finalOnly;
  for (int k = 0; k < o.samples; ++k) {
    const auto t0 = Clock::now();
    const bool ok = advance(interval);
    run.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    const double error = ok ? std::abs(energyOf(sys, state) / sys.energy - 1.0) : INFINITY;
    run.maxError = std::max(run.maxError, error);
    run.finalError = error;
    // Stop early when this step has failed already: an error above the threshold on the way (or, for
    // the final criterion, one far above it, or a failed integration).
    const double limit = o.finalOnly ? 100.0 * o.threshold : o.threshold;
    if (!(error < limit) && k + 1 < o.samples) {
      run.completed = false;
      return;
    }
  }
}

Run runRk4(const System& sys, const RunOptions& o, double dt) {
  Run run;
  run.step = dt;
  const double interval = o.duration / o.samples;
  const auto perInterval = static_cast<long>(std::ceil(interval / dt * (1.0 - 1e-12)));
  run.actualStep = interval / static_cast<double>(perInterval);
  cim::RigidBodySet state = sys.start;
  cim::Rk4Baseline baseline(sys.model, sys.buffer);
  sampleRun(sys, o, run, state, [&](double) {
    for (long n = 0; n < perInterval; ++n) baseline.step(state, run.actualStep);
    for (const Vec3& x : state.position) {
      if (!x.allFinite()) return false;
    }
    return true;
  });
  run.steps = baseline.stats().steps;
  run.evaluations = baseline.stats().evaluations;
  run.lists = baseline.stats().rebuilds;
  return run;
}

// The same with a World integrator at a constant step (leapfrog, midpoint, splitting), its energy as
// World::energy measures it.
Run runWorld(const System& sys, const RunOptions& o, IntegratorKind kind, double dt) {
  Run run;
  run.step = dt;
  const double interval = o.duration / o.samples;
  const auto perInterval = static_cast<long>(std::ceil(interval / dt * (1.0 - 1e-12)));
  run.actualStep = interval / static_cast<double>(perInterval);
  Scene scene = sys.scene;
  scene.model.settings.integrator = kind;
  scene.model.settings.timeStep = run.actualStep;
  scene.model.settings.threads = o.pool != nullptr ? o.pool->threads() : 1;
  const std::unique_ptr<World> world = buildWorld(scene);
  const double e0 = world->energy().total();
  run.completed = true;
  run.finalOnly = o.finalOnly;
  for (int k = 0; k < o.samples; ++k) {
    const auto t0 = Clock::now();
    bool ok = true;
    for (long n = 0; n < perInterval && ok; ++n) ok = world->step();
    run.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    const double error = ok ? std::abs(world->energy().total() / e0 - 1.0) : INFINITY;
    run.maxError = std::max(run.maxError, error);
    run.finalError = error;
    const double limit = o.finalOnly ? 100.0 * o.threshold : o.threshold;
    if (!(error < limit) && k + 1 < o.samples) {
      run.completed = false;
      break;
    }
  }
  run.steps = world->stepCount();
  run.evaluations = world->stepCount();
  run.lists = world->neighbors().rebuildCount();
  return run;
}

Run runBaseline(const System& sys, const RunOptions& o, IntegratorKind kind, double dt) {
  return kind == IntegratorKind::Rk4 ? runRk4(sys, o, dt) : runWorld(sys, o, kind, dt);
}

Run runCim(const System& sys, const RunOptions& o, double minStep) {
  Run run;
  run.step = minStep;
  cim::ClusterStepSettings settings = sys.cimSettings;
  settings.rkf.minStep = minStep;
  cim::RigidBodySet state = sys.start;
  cim::ClusterIntegration integration(sys.model, settings);
  sampleRun(sys, o, run, state, [&](double interval) {
    const cim::IntervalReport r = integration.advance(state, interval, o.pool);
    run.steps += r.total.accepted;
    run.evaluations += r.total.evaluations;
    run.lists += r.lists;
    run.freeMoves += r.freeMoves;
    run.forcedSteps += r.total.forced;
    return r.ok;
  });
  return run;
}

// The largest step in [.., upper] whose run passes: from `guess`, doubling while it passes or halving
// until it does, then bisecting the bracket on a log scale until its ends are within `precision`.
// `tried` collects every run; returns the best passing run (completed = false if none passed).
template <class Trial>
Run tune(double guess, double lowest, double upper, double precision, double threshold, Trial&& trial,
         std::vector<Run>& tried) {
  const auto attempt = [&](double step) {
    tried.push_back(trial(step));
    return tried.back();
  };
  Run best;
  double lo = 0.0, hi = 0.0;  // passing, failing
  Run first = attempt(std::min(guess, upper));
  if (first.passed(threshold)) {
    best = first;
    lo = first.step;
    while (lo < upper) {
      const Run r = attempt(std::min(2.0 * lo, upper));
      if (!r.passed(threshold)) {
        hi = r.step;
        break;
      }
      best = r;
      lo = r.step;
    }
    if (hi == 0.0) return best;  // passes up to the cap
  } else {
    hi = first.step;
    while (hi > lowest) {
      const Run r = attempt(0.5 * hi);
      if (r.passed(threshold)) {
        best = r;
        lo = r.step;
        break;
      }
      hi = r.step;
    }
    if (lo == 0.0) return best;  // nothing passed
  }
  while (hi / lo > precision) {
    const Run r = attempt(std::sqrt(lo * hi));
    if (r.passed(threshold)) {
      best = r;
      lo = r.step;
    } else {
      hi = r.step;
    }
  }
  return best;
}

// Every trial of a search: [step, max error, final error, completed].
nlohmann::json triedJson(const std::vector<Run>& tried) {
  nlohmann::json out = nlohmann::json::array();
  for (const Run& r : tried) out.push_back({r.step, r.maxError, r.finalError, r.completed});
  return out;
}

nlohmann::json runJson(const Run& r, bool rk4) {
  nlohmann::json j = {{"seconds", r.seconds},
                      {"energy_error", r.maxError},
                      {"final_energy_error", r.finalError},
                      {"steps", r.steps},
                      {"evaluations", r.evaluations},
                      {rk4 ? "neighbor_lists" : "cluster_lists", r.lists}};
  if (rk4) {
    j["dt"] = r.actualStep;
  } else {
    j["min_step"] = r.step;
    j["free_moves"] = r.freeMoves;
    j["forced_steps"] = r.forcedSteps;
  }
  return j;
}

std::vector<double> parseStiffnesses(const std::string& text) {
  std::vector<double> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const double k = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(k > 0.0) || !std::isfinite(k)) {
      throw UsageError("--stiffness expects positive numbers separated by commas, got \"" + item + "\"");
    }
    out.push_back(k);
  }
  if (out.empty()) throw UsageError("--stiffness expects at least one value");
  return out;
}

// What cim-table was asked for, checked.
struct TableSettings {
  std::vector<double> stiffnesses;  // [N/m]
  RunOptions options;               // its pool set by the caller
  IntegratorKind baseline = IntegratorKind::Rk4;
  std::string criterion;
  double precision = 1.05;  // the step tuning's factor
  int threads = 1;
  bool quiet = false;
};

TableSettings tableSettings(const Arguments& args) {
  TableSettings t;
  for (const PaperRow& row : kPaper) t.stiffnesses.push_back(row.stiffness);
  if (const auto text = args.text("--stiffness")) t.stiffnesses = parseStiffnesses(*text);
  t.options.duration = args.number("--time").value_or(0.1);
  t.options.threshold = args.number("--threshold").value_or(1e-3);
  t.options.samples = static_cast<int>(args.integer("--samples").value_or(100));
  const auto baselineKind = integratorFromName(args.text("--baseline").value_or("rk4"));
  if (!baselineKind || *baselineKind == IntegratorKind::Cim) {
    throw UsageError("--baseline: expected rk4 (the paper's), leapfrog, midpoint or splitting");
  }
  t.baseline = *baselineKind;
  t.criterion = args.text("--criterion").value_or("max");
  if (t.criterion != "max" && t.criterion != "final") throw UsageError("--criterion: expected max or final");
  t.options.finalOnly = t.criterion == "final";
  t.precision = args.number("--precision").value_or(1.05);
  t.threads = static_cast<int>(args.integer("--threads").value_or(1));
  if (!(t.options.duration > 0.0) || !(t.options.threshold > 0.0) || t.options.samples < 1 ||
      !(t.precision > 1.0) || t.threads < 1 || t.threads > 256) {
    throw UsageError(
        "--time, --threshold must be positive, --samples >= 1, --precision > 1, --threads in [1, 256]");
  }
  t.quiet = args.has("--quiet");
  return t;
}

// The baseline's name in the table's header and lines.
std::string baselineName(IntegratorKind baseline) {
  return baseline == IntegratorKind::Rk4 ? "RK4" : std::string(integratorName(baseline));
}

std::string tableHeader(const std::string& base) {
  char header[300];
  std::snprintf(header, sizeof header, "%12s | %15s %8s | %15s %9s | %8s | %13s %6s %8s | dE/E %s, CIM\n",
                "kn [N/m]", ("dt_" + base + " [1e-5 s]").c_str(), (base + " [s]").c_str(), "dt_min [1e-5 s]",
                "RK-F [s]", "speed-up", "paper: dt_RK4", "dt_min", "speed-up", base.c_str());
  return header;
}

// The steps tuned at the last stiffness, which scaled by sqrt(k_prev / k) are the next guesses.
struct TunedSteps {
  double baseline = 0.0;   // [s]
  double minStep = 0.0;    // [s], cim's
  double stiffness = 0.0;  // [N/m]
};

// One stiffness: the baseline's step and cim's minimum step tuned to the threshold, then both timed
// one after the other under the same conditions. Returns the row; `line` gets its table line.
nlohmann::json measureStiffness(const Scene& scene, double kn, const TableSettings& t, TunedSteps& previous,
                                std::string& line) {
  const RunOptions& options = t.options;
  const System sys = systemFor(scene, kn);
  // A contact lasts about pi sqrt(m_eff / kn); a tenth of it for the first guess, then the tuned
  // step of the previous stiffness scaled by sqrt(k_prev / k).
  const double mass = sys.model.inertia.front().mass;
  const double contactTime = M_PI * std::sqrt(0.5 * mass / kn);
  const double scale = previous.stiffness > 0.0 ? std::sqrt(previous.stiffness / kn) : 0.0;
  const double rk4Guess = previous.baseline > 0.0 ? previous.baseline * scale : 0.1 * contactTime;
  std::vector<Run> rk4Tried, cimTried;
  const Run rk4 = tune(
      rk4Guess, 1e-4 * contactTime, contactTime, t.precision, options.threshold,
      [&](double dt) { return runBaseline(sys, options, t.baseline, dt); }, rk4Tried);
  if (!rk4.completed) throw std::runtime_error("no baseline step kept the energy error below the threshold");
  const double cimGuess = previous.minStep > 0.0 ? previous.minStep * scale : 0.8 * rk4.step;
  const Run cimTuned = tune(
      cimGuess, 1e-3 * rk4.step, contactTime, t.precision, options.threshold,
      [&](double dtMin) { return runCim(sys, options, dtMin); }, cimTried);
  // Without any minimum step (rtol alone) when no dt_min > 0 passed.
  const Run cimBest = cimTuned.completed ? cimTuned : runCim(sys, options, 0.0);
  if (!cimBest.passed(options.threshold)) {
    std::fprintf(stderr, "note: kn %g: CIM misses the threshold even without a minimum step (%.3g)\n", kn,
                 cimBest.maxError);
  }
  const Run rk4Timed = runBaseline(sys, options, t.baseline, rk4.step);
  const Run cimTimed = runCim(sys, options, cimBest.step);
  previous = {rk4.step, cimBest.step, kn};
  const double speedup = rk4Timed.seconds / cimTimed.seconds;
  nlohmann::json row = {
      {"stiffness", kn},    {"rk4", runJson(rk4Timed, true)},    {"cim", runJson(cimTimed, false)},
      {"speedup", speedup}, {"rk4_trials", triedJson(rk4Tried)}, {"cim_trials", triedJson(cimTried)}};
  const PaperRow* paper = t.baseline == IntegratorKind::Rk4 ? paperRow(kn) : nullptr;
  if (paper != nullptr) {
    row["paper"] = {{"rk4_dt", paper->rk4Step},
                    {"rk4_seconds", paper->rk4Seconds},
                    {"min_step", paper->minStep},
                    {"cim_seconds", paper->cimSeconds},
                    {"speedup", paper->speedup}};
  }
  char text[400];
  std::snprintf(text, sizeof text,
                "%12.4g | %15.3f %8.3f | %15.3f %9.3f | %8.2f | %13s %6s %8s | %.2e, %.2e\n", kn,
                1e5 * rk4Timed.actualStep, rk4Timed.seconds, 1e5 * cimTimed.step, cimTimed.seconds, speedup,
                paper ? std::to_string(1e5 * paper->rk4Step).substr(0, 4).c_str() : "-",
                paper ? std::to_string(1e5 * paper->minStep).substr(0, 4).c_str() : "-",
                paper ? std::to_string(paper->speedup).substr(0, 4).c_str() : "-", rk4Timed.maxError,
                cimTimed.maxError);
  line = text;
  return row;
}

}  // namespace

int cimTableCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv,
                       {"--stiffness", "--time", "--threshold", "--threads", "--precision", "--samples",
                        "--out", "--criterion", "--baseline"},
                       {"--quiet"});
  if (args.positional().size() != 1) {
    throw UsageError("expected the scene: clumplab-cli cim-table resources/scenes/cim-spherocylinders.json");
  }
  const Scene scene = loadScene(args.positional()[0]);
  if (scene.model.contact.kind != ContactModel::Kind::Linear) {
    throw InputError(scene.file, "contact.model",
                     "cim-table varies a linear spring's stiffness: use \"linear\"");
  }
  TableSettings t = tableSettings(args);
  // Threads serve the clusters of the cluster integration method (and a World baseline's force
  // loop); the RK4 baseline runs on one. The README's figures are single-threaded.
  ThreadPool pool(t.threads);
  t.options.pool = &pool;
  nlohmann::json rows = nlohmann::json::array();
  std::string table = tableHeader(baselineName(t.baseline));
  TunedSteps previous;
  for (const double kn : t.stiffnesses) {
    std::string line;
    rows.push_back(measureStiffness(scene, kn, t, previous, line));
    table += line;
    if (!t.quiet) std::fputs(line.c_str(), stderr);
  }
  const nlohmann::json out = {{"scene", scene.file},
                              {"bodies", scene.bodies.size()},
                              {"time", t.options.duration},
                              {"threshold", t.options.threshold},
                              {"criterion", t.criterion},
                              {"baseline", std::string(integratorName(t.baseline))},
                              {"samples", t.options.samples},
                              {"precision", t.precision},
                              {"threads", t.threads},
                              {"rows", rows},
                              {"table", table}};
  if (const auto path = args.text("--out")) {
    writeFileAtomically(*path, out.dump(2) + "\n");
  }
  if (!t.quiet) std::fputs(("\n" + table).c_str(), stderr);
  std::cout << out.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
