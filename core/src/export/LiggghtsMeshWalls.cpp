#include "LiggghtsMeshWalls.hpp"

#include <cmath>
#include <numbers>

#include "ExportChecks.hpp"
#include "MeshWallExport.hpp"

namespace clumplab::exporting {

LiggghtsMeshWalls mapLiggghtsMeshWalls(const Scene& scene, const std::string& model,
                                       const std::string& settings, double duration) {
  const std::string engine = "LIGGGHTS";
  LiggghtsMeshWalls out;
  std::string ids;
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    if (scene.model.walls[w].kind != Wall::Kind::Mesh) continue;
    const std::string path = "walls[" + std::to_string(w) + "]";
    refuseInterpolatedMotion(scene, w, engine);
    const MeshWall& wall = *scene.model.walls[w].mesh;
    const std::string id = "mesh" + std::to_string(w);
    out.walls.push_back(w);
    ids += " " + id;
    out.surfaceLines.push_back("fix " + id + " all mesh/surface file " + meshWallFileName(w) +
                               " type 2   # " + path + ": " + wall.file + " x " + number(wall.scale) +
                               " at its pose of t = 0");
    const TriangleMesh mesh = meshAtStart(wall);
    for (const Vec3& v : mesh.vertices) out.sweep.extend(v);
    const WallMotion& m = wall.motion;
    if (m.kind != WallMotion::Kind::Velocity) continue;
    if (m.linear != Vec3::Zero()) {
      out.motionLines.push_back("fix move" + std::to_string(w) + "_linear all move/mesh mesh " + id +
                                " linear " + vec(m.linear));
    }
    const double omega = m.angular.norm();
    if (omega > 0.0) {
      out.motionLines.push_back("fix move" + std::to_string(w) + "_rotate all move/mesh mesh " + id +
                                " rotate origin " + vec(m.center) + " axis " + vec(m.angular / omega) +
                                " period " + number(2.0 * std::numbers::pi / omega));
    }
    // Every vertex stays within its start distance of the axis point, which moves with v.
    double reach = 0.0;
    for (const Vec3& v : mesh.vertices) reach = std::max(reach, (v - m.center).norm());
    const Vec3 end = m.center + duration * m.linear;
    if (omega > 0.0) {
      for (const Vec3& c : {m.center, end}) {
        out.sweep.extend(c - Vec3::Constant(reach));
        out.sweep.extend(c + Vec3::Constant(reach));
      }
    } else {
      for (const Vec3& v : mesh.vertices) out.sweep.extend(v + duration * m.linear);
    }
  }
  if (!out.walls.empty()) {
    out.surfaceLines.push_back("fix meshwalls all wall/gran model " + model + " mesh n_meshes " +
                               std::to_string(out.walls.size()) + " meshes" + ids + settings);
  }
  return out;
}

std::vector<std::string> writeMeshWallFiles(const Scene& scene, const std::vector<std::size_t>& walls,
                                            const std::filesystem::path& folder) {
  std::vector<std::string> files;
  if (!walls.empty()) makeFolder(folder / "meshes");
  for (std::size_t w : walls) {
    const std::string name = meshWallFileName(w);
    writeAsciiStl(meshAtStart(*scene.model.walls[w].mesh), "wall" + std::to_string(w), folder / name);
    files.push_back(name);
  }
  return files;
}

}  // namespace clumplab::exporting
