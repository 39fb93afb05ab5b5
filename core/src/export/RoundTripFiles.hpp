#pragma once
// What an engine export leaves for `clumplab-cli import` (core/export/EngineImport.hpp): the scene as
// exported (scene.json) and a manifest naming it, its time step, the run and what the engine writes.
// Private to core's export.
#include <filesystem>
#include <string>

#include <functional>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "core/export/EngineImport.hpp"
#include "core/export/SceneExport.hpp"
#include "core/io/Trajectory.hpp"
#include "io/JsonReader.hpp"
#include "io/JsonWriter.hpp"

namespace clumplab::exporting {

inline constexpr const char* kRoundTripScene = "scene.json";

// Writes scene.json (the world as exported, as sceneToJson writes it) and `manifestName` holding
// {"format", "scene", "source", "time_step", "steps", "every", "bodies"} and then `extra`'s keys.
// Adds both to `result.files`.
void writeRoundTripFiles(const Scene& scene, const World& world, const std::filesystem::path& folder,
                         const ExportRun& run, const std::string& manifestName, const std::string& format,
                         const json_writer::OrderedJson& extra, ExportResult& result);

// The manifest as the import reads it: its common keys, checked (the format must be `format`);
// `engineKeys` are the engine's own, which `readEngineKeys` reads. A missing manifest is an
// InputError that says which export writes it.
struct RoundTripManifest {
  std::string file;   // the manifest's path
  std::string scene;  // scene.json's path
  double timeStep = 0.0;
};
RoundTripManifest readRoundTripManifest(const std::filesystem::path& folder, const std::string& manifestName,
                                        const std::string& format,
                                        std::initializer_list<std::string_view> engineKeys,
                                        const std::function<void(const json_reader::Node&)>& readEngineKeys);

// The trajectory an import writes, frame by frame as it reads them (one frame in memory, whatever
// the run's length): `scene` embedded (paths relative to the trajectory's folder). Destroyed before
// finish() (an InputError on the way), it leaves no file.
class ImportedTrajectory {
 public:
  ImportedTrajectory(const Scene& scene, const std::string& path);
  ~ImportedTrajectory();
  ImportedTrajectory(const ImportedTrajectory&) = delete;
  ImportedTrajectory& operator=(const ImportedTrajectory&) = delete;

  void add(const TrajectoryFrame& frame);
  // Closes the file and fills the summary's frame counts, times and most bodies in a frame.
  void finish(EngineImportSummary& summary);

 private:
  TrajectoryWriter writer_;
  bool finished_ = false;
  std::size_t frames_ = 0, mostBodies_ = 0;
  double firstTime_ = 0.0, lastTime_ = 0.0;
  std::uint64_t lastStep_ = 0;
};

}  // namespace clumplab::exporting
