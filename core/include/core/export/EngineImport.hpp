#pragma once
// The way back from LIGGGHTS and Yade: a folder that `export --to liggghts|yade` wrote and the
// engine ran in, read into a ClumpLab trajectory (Trajectory.hpp) that the app replays and records.
// Both exports leave the scene as exported (scene.json) and a manifest (clumplab-liggghts.json,
// clumplab-yade.json) beside what the engine writes.
//
// LIGGGHTS: the export leaves the scene as exported (scene.json), a manifest tying LIGGGHTS's clump types to
// its templates (clumplab-liggghts.json), and a deck that dumps every body's pose and velocities
// (post/bodies_<step>.txt: compute multisphere, 17 digits) and every pebble (post/pebbles_<step>.txt)
// at the same steps. LIGGGHTS-PUBLIC turns a clump about the Monte Carlo centroid of its pebble
// union, not about ClumpLab's centre of mass (the export warns by how much); the import puts each
// ClumpLab body where LIGGGHTS's pebbles are: its orientation is LIGGGHTS's quaternion as dumped, its
// centre of mass x = mean(pebbles) - R mean(template pebbles), its velocity v = v_cm + w x (x - x_cm)
// (w as dumped), so every pebble lands on the dumped one to round-off.
#include <cstdint>
#include <string>

#include "core/scene/Scene.hpp"

namespace clumplab {

struct EngineImportSummary {
  std::size_t frames = 0;
  std::size_t sceneBodies = 0;             // bodies of the exported scene
  std::size_t insertedBodies = 0;          // bodies that appeared later (LIGGGHTS's inlets)
  std::size_t mostBodies = 0;              // in one frame
  double firstTime = 0.0, lastTime = 0.0;  // [s]
  std::uint64_t lastStep = 0;
  // Largest distance between a dumped pebble and where the imported pose puts it [m]: round-off.
  double largestPebbleOffset = 0.0;
  // Largest distance between a body's imported centre of mass in the first frame and its place in
  // the exported scene [m] (LIGGGHTS's insertion region and its centroid; the export's warnings).
  double largestStartOffset = 0.0;
};

// Reads `folder` (the manifest, scene.json with `options` for its meshes, the dumps of every step
// that has both) and writes the trajectory to `trajectoryPath`. Throws InputError naming the file
// and the line or key of anything missing, partial or inconsistent, before writing anything.
EngineImportSummary importLiggghtsRun(const std::string& folder, const std::string& trajectoryPath,
                                      const SceneLoadOptions& options);

// Yade: the exported script writes yade_bodies.csv (time, body, pose and velocities of ClumpLab's
// principal frame, 17 digits) at every output step; the import reads it as it is (largestPebbleOffset
// and largestStartOffset stay 0: Yade's clumps are ClumpLab's, centre of mass and all).
EngineImportSummary importYadeRun(const std::string& folder, const std::string& trajectoryPath,
                                  const SceneLoadOptions& options);

}  // namespace clumplab
