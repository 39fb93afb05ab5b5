// clumplab-cli: the headless face of ClumpLab (docs/formats.md). Exit codes: 0 success, 2 bad input
// (file, field and problem on one stderr line), 3 the simulation diverged, 1 anything else.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "Arguments.hpp"
#include "Commands.hpp"
#include "core/base/Errors.hpp"
#include "core/base/HeapPolicy.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/base/Version.hpp"

namespace {
// Each command's lines of the usage; `clumplab-cli COMMAND --help` prints its own.
struct CommandUsage {
  const char* name;
  const char* text;
};
constexpr CommandUsage kCommands[] = {
    {"run",
     "  run SCENE.json [--steps N | --time T] [--energy E.csv] [--states S.csv] [--every K]\n"
     "                 [--integrator leapfrog|midpoint|splitting|cim|rk4] [--dt X] [--threads N]\n"
     "                 [--spheres bounding|volume] [--plane xy|xz|yz|3d] [--vtk DIR]\n"
     "      --vtk: ParaView files (pebbles, bodies, walls) every K steps and DIR/clumplab.pvd\n"},
    {"export",
     "  export SCENE.json --to vtk|liggghts|yade|mercurydpm --out DIR [--steps N | --time T] [--every K]\n"
     "      the initial state for ParaView, a LIGGGHTS deck, a Yade script or MercuryDPM clump folders\n"},
    {"import",
     "  import DIR --from liggghts|yade --out RUN.cltraj\n"
     "      a LIGGGHTS or Yade run of an exported scene as a trajectory for clumplab --replay\n"},
    {"inertia",
     "  inertia FILE [--method mesh|voxel|monte-carlo|pebbles|given] [--density D] [--scale S]\n"
     "               [--voxels N | --voxel-budget E] [--samples N] [--sequence halton|sine] [--repair]\n"
     "      FILE: a mesh (STL, OBJ, PLY, ...), a template JSON, `x y z r` text or a MercuryDPM\n"
     "      clump folder\n"},
    {"fill",
     "  fill MESH (--spacing H | --count N) [--radius R] [--mode circumscribed|given|fitted|shell]\n"
     "            [--band B] [--min-radius R] [--density D] [--scale S]\n"
     "            [--inertia mesh|voxel|monte-carlo|pebbles] [--repair] [--out T.json]\n"
     "      or --pebbles FILE|FOLDER instead of the grid (MClump mode 4)\n"
     "      or --mode spheres [--target-dice D | --count N] [--max-protrusion P] [--min-radius R]:\n"
     "      spheres of varied radii fitted to the solid (Dice 0.95, protrusion 2% of the size by default)\n"},
    {"mesh", "  mesh MESH [--scale S] [--repair]         checks a mesh and reports it\n"},
    {"bench",
     "  bench SCENE.json [--steps N] [--threads N] [--spheres bounding|volume] [--plane xy|xz|yz|3d]\n"},
    {"bench-shapes",
     "  bench-shapes --case mass|inside|fill [--triangles N] [--queries N] [--candidates N]\n"
     "               [--fitted] [--threads N]\n"},
    {"shape",
     "  shape NAME [--size S] [--mesh OUT.stl] [--ascii] [--template OUT.json --density D [--inertia M]]\n"
     "  shape --list\n"},
    {"order",
     "  order SCENE.json [--runs 4] [--factor 2] [--time T] [--from T0] [--to T1] [--samples N]\n"
     "                   [--integrator leapfrog|midpoint|splitting] [--dt X] [--series S.csv]\n"
     "      integrator order analysis (Mutze, Polyspherical grains, §1 viii, ix): runs with the\n"
     "      steps multiplied by the factor; orders of the trajectory distance and of the energy\n"
     "      deviation over [T0, T1]\n"},
    {"cim-scene",
     "  cim-scene --out SCENE.json [--seed S] [--count N] [--box L] [--energy E] [--stiffness K]\n"
     "            [--buffer D] [--tolerance T] [--max-time T] [--min-step DT] [--threads N] [--quiet]\n"
     "      the cluster integration paper's test system: spherocylinders in a periodic box,\n"
     "      equilibrated to equipartition\n"},
    {"cim-table",
     "  cim-table SCENE.json [--stiffness K1,K2,...] [--time T] [--threshold E] [--criterion max|final]\n"
     "            [--samples N] [--precision F] [--baseline rk4|leapfrog|midpoint|splitting] [--threads N]\n"
     "            [--out T.json] [--quiet]\n"
     "      the cluster integration paper's Table 1: RK4 step and RKF minimum step tuned per\n"
     "      stiffness, times, speed-up\n"},
};
constexpr const char* kHeader =
    "usage: clumplab-cli <command> [options]     (clumplab-cli --version: version and git revision)\n";
constexpr const char* kLimits =
    "limits (every command; also CLUMPLAB_MAX_PEBBLES and the like):\n"
    "  [--max-pebbles N] [--max-fill-points N] [--max-triangles N] [--max-memory-mb MB]\n";

std::string usage() {
  std::string text = kHeader;
  for (const CommandUsage& c : kCommands) text += c.text;
  return text + kLimits;
}

// The usage of `command` alone ("" for an unknown command).
std::string commandUsage(const std::string& command) {
  for (const CommandUsage& c : kCommands) {
    if (command == c.name) return "usage: clumplab-cli " + command + " [options]\n" + c.text + kLimits;
  }
  return {};
}

bool asksForHelp(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  clumplab::keepLargeBlocksMapped();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--version" || args[0] == "-V")) {
    std::printf("clumplab-cli: %s\n", clumplab::versionLine().c_str());
    return 0;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(usage().c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (asksForHelp(args) && !commandUsage(command).empty()) {
    std::fputs(commandUsage(command).c_str(), stdout);
    return 0;
  }
  try {
    try {
      (void)clumplab::resourceLimits();  // a bad CLUMPLAB_MAX_* variable is reported here
      clumplab::takeLimitOptions(args);
    } catch (const std::invalid_argument& e) {
      throw clumplab::cli::UsageError(e.what());
    }
    if (command == "run") return clumplab::cli::runCommand(args);
    if (command == "inertia") return clumplab::cli::inertiaCommand(args);
    if (command == "bench") return clumplab::cli::benchCommand(args);
    if (command == "fill") return clumplab::cli::fillCommand(args);
    if (command == "mesh") return clumplab::cli::meshCommand(args);
    if (command == "bench-shapes") return clumplab::cli::benchShapesCommand(args);
    if (command == "shape") return clumplab::cli::shapeCommand(args);
    if (command == "order") return clumplab::cli::orderCommand(args);
    if (command == "cim-scene") return clumplab::cli::cimSceneCommand(args);
    if (command == "cim-table") return clumplab::cli::cimTableCommand(args);
    if (command == "export") return clumplab::cli::exportCommand(args);
    if (command == "import") return clumplab::cli::importCommand(args);
    std::fprintf(stderr, "clumplab-cli: unknown command \"%s\"\n%s", command.c_str(), usage().c_str());
    return 2;
  } catch (const clumplab::InputError& e) {
    std::fprintf(stderr, "%s\n", clumplab::cli::failureLine(command, e).c_str());
    return 2;
  } catch (const clumplab::cli::UsageError& e) {
    std::fprintf(stderr, "%s\n", clumplab::cli::failureLine(command, e).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", clumplab::cli::failureLine(command, e).c_str());
    return 1;
  }
}
