// The way back from Yade (core/export/EngineImport.hpp): yade_bodies.csv, which the exported script
// writes at every output step, read into a trajectory of the exported scene.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "RoundTripFiles.hpp"
#include "core/base/Errors.hpp"
#include "core/export/EngineImport.hpp"
#include "io/TextFile.hpp"

namespace clumplab {

namespace {
constexpr const char* kYadeManifest = "clumplab-yade.json";
constexpr const char* kYadeHeader = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
}  // namespace

EngineImportSummary importYadeRun(const std::string& folderName, const std::string& trajectoryPath,
                                  const SceneLoadOptions& options) {
  const std::filesystem::path folder(folderName);
  std::string output;
  const exporting::RoundTripManifest manifest = exporting::readRoundTripManifest(
      folder, kYadeManifest, "clumplab-yade-export/1", {"output"},
      [&](const json_reader::Node& node) { output = node.child("output").string(); });
  const Scene scene = loadScene(manifest.scene, options);
  const std::string file = (folder / output).string();
  if (!std::filesystem::exists(file)) {
    throw InputError(file, "",
                     "missing: Yade has not run the script here yet (yade -n -x clumplab_yade.py, in " +
                         folder.string() + ")");
  }
  std::istringstream in(readTextFile(file));
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& problem) -> void {
    throw InputError(file, "line " + std::to_string(number), problem);
  };
  if (!std::getline(in, line) || (++number, line != kYadeHeader))
    fail(std::string("expected the header \"") + kYadeHeader + "\"");
  const std::size_t bodies = scene.bodies.size();
  exporting::ImportedTrajectory out(scene, trajectoryPath);
  TrajectoryFrame frame;  // the one being read
  bool any = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::array<double, 15> v{};
    const char* at = line.c_str();
    for (std::size_t c = 0; c < v.size(); ++c) {
      char* end = nullptr;
      v[c] = std::strtod(at, &end);
      if (end == at || !std::isfinite(v[c]))
        fail("value " + std::to_string(c + 1) + " of 15 is not a finite number");
      at = end;
      if (c + 1 < v.size()) {
        if (*at != ',') fail("15 comma-separated values expected");
        ++at;
      }
    }
    if (std::string(at).find_first_not_of(" \t\r") != std::string::npos) fail("more than 15 values");
    const double body = v[1];
    if (body != std::floor(body) || body < 0 || body >= static_cast<double>(bodies))
      fail("body " + std::to_string(body) + ": the exported scene has bodies 0 to " +
           std::to_string(bodies - 1));
    const auto b = static_cast<std::size_t>(body);
    if (!any || frame.time != v[0]) {
      if (any && frame.bodies.size() != bodies)
        fail("a new time before every body of the last one (" + std::to_string(frame.bodies.size()) + " of " +
             std::to_string(bodies) + ")");
      if (any && !(v[0] > frame.time)) fail("the time goes back");
      if (any) out.add(frame);
      frame = TrajectoryFrame{};
      frame.time = v[0];
      frame.step = static_cast<std::uint64_t>(std::llround(v[0] / manifest.timeStep));
      any = true;
    }
    SnapshotBodies& s = frame.bodies;
    if (b != s.size())
      fail("body " + std::to_string(b) + " where body " + std::to_string(s.size()) + " comes next");
    const Quat q(v[5], v[6], v[7], v[8]);
    if (std::abs(q.norm() - 1.0) > 1e-9)
      fail("the quaternion's norm is " + std::to_string(q.norm()) + ", not 1");
    s.templateIndex.push_back(scene.bodies[b].templateIndex);
    s.position.emplace_back(v[2], v[3], v[4]);
    s.orientation.push_back(q);
    s.velocity.emplace_back(v[9], v[10], v[11]);
    s.angularVelocity.emplace_back(v[12], v[13], v[14]);
  }
  if (!any) throw InputError(file, "", "no rows: did Yade stop before its first report?");
  if (frame.bodies.size() != bodies) {
    throw InputError(file, "line " + std::to_string(number),
                     "the last time has " + std::to_string(frame.bodies.size()) + " of the " +
                         std::to_string(bodies) + " bodies (cut short while Yade was writing it?)");
  }
  out.add(frame);
  EngineImportSummary summary;
  summary.sceneBodies = bodies;
  out.finish(summary);
  return summary;
}

}  // namespace clumplab
