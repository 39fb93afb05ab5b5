#include "LiggghtsRoundTrip.hpp"

#include <sstream>

#include "RoundTripFiles.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/world/World.hpp"

namespace clumplab::exporting {

std::string liggghtsBodyDumpCommands(long long every) {
  std::ostringstream out;
  // LIGGGHTS-PUBLIC's compute multisphere: per-body values of fix multisphere (a local array).
  out << "compute ms_id all multisphere property id_multisphere\n"
      << "compute ms_type all multisphere property clumptype\n"
      << "compute ms_x all multisphere property xcm\n"
      << "compute ms_q all multisphere property quat\n"
      << "compute ms_v all multisphere property vcm\n"
      << "compute ms_w all multisphere property omega\n"
      << "dump bodies all local " << every << " " << kLiggghtsBodyDump << " " << kLiggghtsBodyColumns << "\n"
      << "dump_modify bodies format \"";
  for (int c = 0; c < 15; ++c) out << (c ? " " : "") << "%.17g";  // local values are doubles, ids too
  out << "\"\n";
  return out.str();
}

void writeLiggghtsRoundTripFiles(const Scene& scene, const World& world, const std::filesystem::path& folder,
                                 const ExportRun& run, const std::vector<int>& typeOf, ExportResult& result) {
  const std::vector<std::string> keys = templateKeys(world.model().templates);
  json_writer::OrderedJson types = json_writer::OrderedJson::array();
  for (std::size_t t = 0; t < typeOf.size(); ++t) {
    if (typeOf[t] > 0) types.push_back({{"type", typeOf[t]}, {"template", keys[t]}});
  }
  json_writer::OrderedJson extra;
  extra["types"] = types;
  extra["body_dump"] = kLiggghtsBodyDump;
  extra["pebble_dump"] = kLiggghtsPebbleDump;
  writeRoundTripFiles(scene, world, folder, run, kLiggghtsManifest, "clumplab-liggghts-export/1", extra,
                      result);
}

}  // namespace clumplab::exporting
