#pragma once
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Arguments.hpp"
#include "core/energy/Energy.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::cli {

// Each returns the process exit code and prints one JSON object on stdout when it succeeds.
int runCommand(const std::vector<std::string>& args);
int inertiaCommand(const std::vector<std::string>& args);
int benchCommand(const std::vector<std::string>& args);
int fillCommand(const std::vector<std::string>& args);
int meshCommand(const std::vector<std::string>& args);
int benchShapesCommand(const std::vector<std::string>& args);
int shapeCommand(const std::vector<std::string>& args);
int orderCommand(const std::vector<std::string>& args);
int cimSceneCommand(const std::vector<std::string>& args);
int cimTableCommand(const std::vector<std::string>& args);
int exportCommand(const std::vector<std::string>& args);
int importCommand(const std::vector<std::string>& args);

// The JSON objects `inertia` and `fill` print (fill writes --out first), for the commands and the
// Python module alike; warnings go to stderr. Throw InputError / UsageError on bad input.
nlohmann::json inertiaResult(const std::vector<std::string>& args);
nlohmann::json fillResult(const std::vector<std::string>& args);

// The one line clumplab-cli prints on stderr when `command` fails with `error`: an InputError's own
// (file, JSON path or line, problem), anything else after "clumplab-cli COMMAND: ".
std::string failureLine(const std::string& command, const std::exception& error);

// Loads the scene named by the first positional argument and applies --integrator, --dt,
// --threads, --spheres (every clump as its bounding or volume-equivalent sphere) and --plane (2D in
// xy, xz or yz through the middle of the bodies, or 3d); prints the scene's load notes on stderr.
// Throws InputError / UsageError on bad input.
Scene loadSceneWithOverrides(const Arguments& args, const char* command);

nlohmann::json energyJson(const EnergyReport& e);
nlohmann::json vectorJson(const Vec3& v);

}  // namespace clumplab::cli
