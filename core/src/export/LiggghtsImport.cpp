#include "core/export/EngineImport.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <regex>

#include "LiggghtsDumps.hpp"
#include "LiggghtsRoundTrip.hpp"
#include "RoundTripFiles.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/Trajectory.hpp"
#include "io/JsonReader.hpp"

namespace clumplab {

namespace fs = std::filesystem;
using exporting::LiggghtsDump;
using json_reader::Node;

namespace {

struct Manifest {
  exporting::RoundTripManifest common;
  std::map<long long, std::string> types;  // LIGGGHTS clump type -> the scene's template key
};

Manifest readManifest(const fs::path& folder) {
  Manifest m;
  m.common =
      exporting::readRoundTripManifest(folder, exporting::kLiggghtsManifest, "clumplab-liggghts-export/1",
                                       {"types", "body_dump", "pebble_dump"}, [&](const Node& node) {
                                         const Node types = node.child("types");
                                         for (std::size_t i = 0; i < types.arraySize(); ++i) {
                                           const Node t = types.element(i);
                                           t.allowOnly({"type", "template"});
                                           const long long type = t.child("type").integer();
                                           if (type < 1) t.child("type").fail("a LIGGGHTS type is 1 or more");
                                           m.types[type] = t.child("template").string();
                                         }
                                       });
  return m;
}

// The steps that have a body dump, ascending.
std::vector<long long> dumpSteps(const fs::path& folder) {
  const fs::path post = folder / "post";
  if (!fs::is_directory(post)) {
    throw InputError(post.string(), "",
                     "no such folder: LIGGGHTS has not run the deck here yet (mpirun -np 4 liggghts -in "
                     "in.clumplab, in " +
                         folder.string() + ")");
  }
  const std::regex name(R"(bodies_([0-9]+)\.txt)");
  std::vector<long long> steps;
  for (const fs::directory_entry& e : fs::directory_iterator(post)) {
    std::smatch m;
    const std::string file = e.path().filename().string();
    if (std::regex_match(file, m, name)) steps.push_back(std::stoll(m[1].str()));
  }
  if (steps.empty()) {
    throw InputError(post.string(), "",
                     "no body dumps (bodies_<step>.txt): did LIGGGHTS run the deck of this export, and "
                     "was it exported by a ClumpLab that dumps the bodies?");
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

struct BodyRow {
  long long id = 0, type = 0;
  Vec3 centre, velocity, spin;  // LIGGGHTS's centre of mass and its velocity, the angular velocity
  Quat q;
  int line = 0;
};

long long wholeNumber(const LiggghtsDump& d, std::size_t row, std::size_t column, long long least) {
  const double v = d.rows[row][column];
  if (v != std::floor(v) || v < static_cast<double>(least) || v > 9e15) {
    throw InputError(d.file, "line " + std::to_string(d.lines[row]),
                     d.columns[column] + " is " + std::to_string(v) +
                         ": expected a whole number of at least " + std::to_string(least));
  }
  return static_cast<long long>(v);
}

std::vector<BodyRow> bodyRows(const LiggghtsDump& d) {
  std::array<std::size_t, 15> c{};
  {
    std::istringstream names(exporting::kLiggghtsBodyColumns);
    std::string name;
    for (std::size_t& index : c) {
      names >> name;
      index = d.column(name);
    }
  }
  std::vector<BodyRow> rows(d.rows.size());
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const std::vector<double>& v = d.rows[r];
    BodyRow& b = rows[r];
    b.id = wholeNumber(d, r, c[0], 1);
    b.type = wholeNumber(d, r, c[1], 1);
    b.centre = Vec3(v[c[2]], v[c[3]], v[c[4]]);
    b.q = Quat(v[c[5]], v[c[6]], v[c[7]], v[c[8]]);
    b.velocity = Vec3(v[c[9]], v[c[10]], v[c[11]]);
    b.spin = Vec3(v[c[12]], v[c[13]], v[c[14]]);
    b.line = d.lines[r];
    if (std::abs(b.q.norm() - 1.0) > 1e-9) {
      throw InputError(d.file, "line " + std::to_string(b.line),
                       "body " + std::to_string(b.id) + ": its quaternion's norm is " +
                           std::to_string(b.q.norm()) + ", not 1");
    }
  }
  return rows;
}

// A dumped pebble: its atom id's line and where it is.
struct PebbleAt {
  Vec3 position;
  int line = 0;
};

// The pebbles of each body (LIGGGHTS's mol), in atom id order (the dump is sorted by id).
std::map<long long, std::vector<PebbleAt>> pebblesByBody(const LiggghtsDump& d) {
  const std::size_t mol = d.column("mol"), x = d.column("x"), y = d.column("y"), z = d.column("z");
  d.column("id");
  std::map<long long, std::vector<PebbleAt>> out;
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const long long body = wholeNumber(d, r, mol, 1);
    out[body].push_back({Vec3(d.rows[r][x], d.rows[r][y], d.rows[r][z]), d.lines[r]});
  }
  return out;
}

// The pose that puts a template's pebbles on LIGGGHTS's, and LIGGGHTS's id of the body.
struct Pose {
  long long id;
  std::uint32_t templateIndex;
  Vec3 x, v, w;
  Quat q;
};

// Ties the exported scene's bodies to LIGGGHTS's at the first dump: LIGGGHTS numbers them in the
// order the deck inserts them (body b is id b + 1), which is taken when every body's template
// agrees and each lands within its own bounding radius of where the scene put it (LIGGGHTS inserts
// within 0.255 mm); otherwise each scene body gets the nearest unclaimed body of its template.
// Fills `indexOf` (LIGGGHTS id -> body), `templateOfIndex` and the largest start offset [m].
void matchSceneBodies(const Scene& scene, const std::vector<Pose>& poses, const std::string& bodyFile,
                      const std::vector<std::string>& keys, std::map<long long, std::uint32_t>& indexOf,
                      std::vector<std::uint32_t>& templateOfIndex, double& largestOffset) {
  const PeriodicBox& periodic = scene.model.settings.periodic;
  const std::size_t n = scene.bodies.size();
  std::map<long long, const Pose*> byId;
  for (const Pose& p : poses) byId[p.id] = &p;
  const auto offset = [&](const Pose& p, std::size_t b) {
    return periodic.minimumImage(p.x - scene.bodies[b].position).norm();
  };
  bool inOrder = true;
  for (std::size_t b = 0; b < n && inOrder; ++b) {
    const auto at = byId.find(static_cast<long long>(b) + 1);
    const std::uint32_t t = scene.bodies[b].templateIndex;
    inOrder = at != byId.end() && at->second->templateIndex == t &&
              offset(*at->second, b) <= scene.model.templates[t]->boundingRadius;
  }
  std::vector<std::size_t> chosen(n);
  if (inOrder) {
    for (std::size_t b = 0; b < n; ++b) {
      chosen[b] = static_cast<std::size_t>(byId[static_cast<long long>(b) + 1] - poses.data());
    }
  } else {
    std::vector<bool> taken(poses.size(), false);
    for (std::size_t b = 0; b < n; ++b) {
      double best = std::numeric_limits<double>::infinity();
      chosen[b] = poses.size();
      for (std::size_t p = 0; p < poses.size(); ++p) {
        if (taken[p] || poses[p].templateIndex != scene.bodies[b].templateIndex) continue;
        if (const double d = offset(poses[p], b); d < best) best = d, chosen[b] = p;
      }
      if (chosen[b] == poses.size()) {
        throw InputError(bodyFile, "",
                         "no body of template \"" + keys[scene.bodies[b].templateIndex] +
                             "\" for the exported scene's body " + std::to_string(b) +
                             " (LIGGGHTS inserts them all at its first step: see its log)");
      }
      taken[chosen[b]] = true;
    }
  }
  for (std::size_t b = 0; b < n; ++b) {
    indexOf[poses[chosen[b]].id] = static_cast<std::uint32_t>(b);
    templateOfIndex.push_back(scene.bodies[b].templateIndex);
    largestOffset = std::max(largestOffset, offset(poses[chosen[b]], b));
  }
}

// What every step's dumps are read against: the exported scene, its template keys, the manifest's
// clump types, and each template's mean pebble centre (body frame [m]).
struct ImportContext {
  const Scene& scene;
  const std::vector<std::string>& keys;
  const std::string& manifestFile;
  std::map<long long, std::uint32_t> templateOfType;  // LIGGGHTS clump type -> template index
  std::vector<Vec3> templateMean;
};

ImportContext importContext(const Manifest& manifest, const Scene& scene,
                            const std::vector<std::string>& keys) {
  ImportContext c{scene, keys, manifest.common.file, {}, {}};
  for (const auto& [type, key] : manifest.types) {
    const auto at = std::find(keys.begin(), keys.end(), key);
    if (at == keys.end())
      throw InputError(c.manifestFile, "types",
                       "template \"" + key + "\" is not in " + manifest.common.scene);
    c.templateOfType[type] = static_cast<std::uint32_t>(at - keys.begin());
  }
  for (const TemplatePtr& t : scene.model.templates) {
    Vec3 sum = Vec3::Zero();
    for (const Pebble& p : t->pebbles) sum += p.center;
    c.templateMean.push_back(sum / static_cast<double>(std::max<std::size_t>(t->pebbles.size(), 1)));
  }
  return c;
}

// One step's dumps, read and checked against each other.
struct StepDumps {
  std::string bodyFile, pebbleFile;
  std::vector<BodyRow> rows;                           // by id
  std::map<long long, std::vector<PebbleAt>> pebbles;  // by body
};

StepDumps readStepDumps(const fs::path& folder, long long step) {
  StepDumps d;
  d.bodyFile = (folder / "post" / ("bodies_" + std::to_string(step) + ".txt")).string();
  d.pebbleFile = (folder / "post" / ("pebbles_" + std::to_string(step) + ".txt")).string();
  const LiggghtsDump bodyDump = exporting::readLiggghtsDump(d.bodyFile);
  if (bodyDump.step != step)
    throw InputError(
        d.bodyFile, "line 2",
        "the dump is of step " + std::to_string(bodyDump.step) + ", its name says " + std::to_string(step));
  if (!fs::exists(d.pebbleFile))
    throw InputError(
        d.pebbleFile, "",
        "missing: the body dump of step " + std::to_string(step) + " has no pebble dump beside it");
  const LiggghtsDump pebbleDump = exporting::readLiggghtsDump(d.pebbleFile);
  d.rows = bodyRows(bodyDump);
  std::sort(d.rows.begin(), d.rows.end(), [](const BodyRow& a, const BodyRow& b) { return a.id < b.id; });
  d.pebbles = pebblesByBody(pebbleDump);
  return d;
}

// Each body's pose as ClumpLab's: the centre of mass that puts the mean of the template's pebbles,
// turned by the dumped orientation, at the mean of the dumped pebbles; the velocity at that point.
// `largestPebbleOffset` grows to the largest distance of a dumped pebble from where the pose puts it
// [m].
std::vector<Pose> posesOf(const ImportContext& c, const StepDumps& d, double& largestPebbleOffset) {
  const PeriodicBox& periodic = c.scene.model.settings.periodic;
  std::vector<Vec3> dumped;  // one body's dumped pebbles, unwrapped
  std::vector<Pose> poses;
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const BodyRow& b = d.rows[r];
    const std::string where = "line " + std::to_string(b.line);
    if (r > 0 && d.rows[r - 1].id == b.id)
      throw InputError(d.bodyFile, where, "body " + std::to_string(b.id) + " twice");
    const auto type = c.templateOfType.find(b.type);
    if (type == c.templateOfType.end())
      throw InputError(d.bodyFile, where,
                       "clump type " + std::to_string(b.type) + " is none the export wrote (" +
                           c.manifestFile + ", types)");
    const ClumpTemplate& t = *c.scene.model.templates[type->second];
    const auto own = d.pebbles.find(b.id);
    const std::size_t count = own == d.pebbles.end() ? 0 : own->second.size();
    if (count != t.pebbles.size()) {
      throw InputError(d.pebbleFile, "",
                       "body " + std::to_string(b.id) + " has " + std::to_string(count) + " pebbles (mol " +
                           std::to_string(b.id) + "), its template \"" + c.keys[type->second] + "\" " +
                           std::to_string(t.pebbles.size()));
    }
    const Mat3 rotation = b.q.toRotationMatrix();
    dumped.clear();
    Vec3 meanDumped = Vec3::Zero();
    for (std::size_t i = 0; i < count; ++i) {
      // Across a periodic face LIGGGHTS wraps each pebble on its own: take the image nearest the centre.
      dumped.push_back(b.centre + periodic.minimumImage(own->second[i].position - b.centre));
      meanDumped += dumped.back();
    }
    const Vec3 x = meanDumped / static_cast<double>(count) - rotation * c.templateMean[type->second];
    for (std::size_t i = 0; i < count; ++i) {
      largestPebbleOffset =
          std::max(largestPebbleOffset, (dumped[i] - (x + rotation * t.pebbles[i].center)).norm());
    }
    poses.push_back(
        {b.id, type->second, periodic.wrap(x), b.velocity + b.spin.cross(x - b.centre), b.spin, b.q});
  }
  for (const auto& entry : d.pebbles) {
    const long long body = entry.first;  // not a structured binding: clang 14 cannot capture one
    if (!std::any_of(d.rows.begin(), d.rows.end(), [&](const BodyRow& b) { return b.id == body; }))
      throw InputError(d.pebbleFile, "",
                       "pebbles of body " + std::to_string(body) + ", which " + d.bodyFile + " lacks");
  }
  return poses;
}

// The bodies of one step in ClumpLab's order: the scene's first (indexOf, from the first step), then
// those inlets inserted since, in the order they appeared.
struct BodyOrder {
  std::map<long long, std::uint32_t> indexOf;  // LIGGGHTS body id -> ClumpLab body index
  std::vector<std::uint32_t> templateOfIndex;
};

TrajectoryFrame frameOf(const std::vector<Pose>& poses, const std::string& bodyFile, BodyOrder& order,
                        std::size_t& insertedBodies) {
  TrajectoryFrame frame;
  std::vector<std::pair<std::uint32_t, const Pose*>> ordered;
  for (const Pose& p : poses) {
    auto known = order.indexOf.find(p.id);
    if (known == order.indexOf.end()) {  // inserted since (an inlet)
      known = order.indexOf.emplace(p.id, static_cast<std::uint32_t>(order.templateOfIndex.size())).first;
      order.templateOfIndex.push_back(p.templateIndex);
      ++insertedBodies;
    } else if (order.templateOfIndex[known->second] != p.templateIndex) {
      throw InputError(bodyFile, "", "body " + std::to_string(p.id) + " changed its clump type");
    }
    ordered.emplace_back(known->second, &p);
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [index, p] : ordered) {
    frame.bodies.templateIndex.push_back(p->templateIndex);
    frame.bodies.position.push_back(p->x);
    frame.bodies.orientation.push_back(p->q);
    frame.bodies.velocity.push_back(p->v);
    frame.bodies.angularVelocity.push_back(p->w);
  }
  return frame;
}

}  // namespace

EngineImportSummary importLiggghtsRun(const std::string& folderName, const std::string& trajectoryPath,
                                      const SceneLoadOptions& options) {
  const fs::path folder(folderName);
  const Manifest manifest = readManifest(folder);
  const Scene scene = loadScene(manifest.common.scene, options);
  const std::vector<std::string> keys = templateKeys(scene.model.templates);
  const ImportContext context = importContext(manifest, scene, keys);
  EngineImportSummary summary;
  summary.sceneBodies = scene.bodies.size();
  BodyOrder order;
  const std::vector<long long> steps = dumpSteps(folder);
  exporting::ImportedTrajectory out(scene, trajectoryPath);
  for (long long step : steps) {
    const StepDumps dumps = readStepDumps(folder, step);
    const std::vector<Pose> poses = posesOf(context, dumps, summary.largestPebbleOffset);
    if (step == steps.front()) {
      matchSceneBodies(scene, poses, dumps.bodyFile, keys, order.indexOf, order.templateOfIndex,
                       summary.largestStartOffset);
    }
    TrajectoryFrame frame = frameOf(poses, dumps.bodyFile, order, summary.insertedBodies);
    frame.time = static_cast<double>(step) * manifest.common.timeStep;
    frame.step = static_cast<std::uint64_t>(step);
    out.add(frame);
  }
  out.finish(summary);
  return summary;
}

}  // namespace clumplab
