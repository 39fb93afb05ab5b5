#include "RoundTripFiles.hpp"

#include "ExportChecks.hpp"
#include "core/base/Errors.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/world/World.hpp"

#include <algorithm>

namespace clumplab::exporting {

void writeRoundTripFiles(const Scene& scene, const World& world, const std::filesystem::path& folder,
                         const ExportRun& run, const std::string& manifestName, const std::string& format,
                         const json_writer::OrderedJson& extra, ExportResult& result) {
  {
    AtomicOutputFile file = openOutput(folder / kRoundTripScene);
    file.stream() << sceneToJson(sceneFromWorld(world, scene), folder.string()) << "\n";
    file.commit();
  }
  result.files.emplace_back(kRoundTripScene);
  json_writer::OrderedJson manifest;
  manifest["format"] = format;
  manifest["scene"] = kRoundTripScene;
  manifest["source"] = scene.file;
  manifest["time_step"] = scene.model.settings.timeStep;
  manifest["steps"] = run.steps;
  manifest["every"] = run.every;
  manifest["bodies"] = world.bodies().size();
  for (const auto& [key, value] : extra.items()) manifest[key] = value;
  AtomicOutputFile file = openOutput(folder / manifestName);
  file.stream() << manifest.dump(1) << "\n";
  file.commit();
  result.files.push_back(manifestName);
}

RoundTripManifest readRoundTripManifest(const std::filesystem::path& folder, const std::string& manifestName,
                                        const std::string& format,
                                        std::initializer_list<std::string_view> engineKeys,
                                        const std::function<void(const json_reader::Node&)>& readEngineKeys) {
  RoundTripManifest m;
  m.file = (folder / manifestName).string();
  if (!std::filesystem::exists(m.file)) {
    throw InputError(m.file, "",
                     "missing: is this a folder that clumplab-cli export wrote, and for this engine? (an "
                     "export older than the import writes no manifest: export the scene again)");
  }
  const json_reader::Json root = json_reader::parseFile(m.file);
  const json_reader::Node node(root, m.file, "");
  std::vector<std::string_view> allowed = {"format", "scene", "source", "time_step",
                                           "steps",  "every", "bodies"};
  allowed.insert(allowed.end(), engineKeys.begin(), engineKeys.end());
  node.allowOnly(std::span<const std::string_view>(allowed.data(), allowed.size()));
  const std::string found = node.child("format").string();
  if (found != format) node.child("format").fail("expected \"" + format + "\", got \"" + found + "\"");
  m.scene = (folder / node.child("scene").string()).string();
  m.timeStep = node.child("time_step").positive();
  readEngineKeys(node);
  return m;
}

namespace {
std::string folderOf(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}
}  // namespace

ImportedTrajectory::ImportedTrajectory(const Scene& scene, const std::string& path)
    : writer_(path, sceneToJson(scene, folderOf(path)), templateKeys(scene.model.templates)) {}

ImportedTrajectory::~ImportedTrajectory() {
  if (!finished_) writer_.abandon();
}

void ImportedTrajectory::add(const TrajectoryFrame& frame) {
  writer_.append(frame);
  if (frames_++ == 0) firstTime_ = frame.time;
  lastTime_ = frame.time;
  lastStep_ = frame.step;
  mostBodies_ = std::max(mostBodies_, frame.bodies.size());
}

void ImportedTrajectory::finish(EngineImportSummary& summary) {
  writer_.close();
  finished_ = true;
  summary.frames = frames_;
  summary.mostBodies = mostBodies_;
  summary.firstTime = firstTime_;
  summary.lastTime = lastTime_;
  summary.lastStep = lastStep_;
}

}  // namespace clumplab::exporting
