#include "YadeMeshWalls.hpp"

#include "ExportChecks.hpp"
#include "MeshWallExport.hpp"

namespace clumplab::exporting {

namespace {

std::string tuple3(const Vec3& v) {
  return "(" + number(v.x()) + ", " + number(v.y()) + ", " + number(v.z()) + ")";
}

}  // namespace

std::string yadeMeshWalls(const Scene& scene) {
  std::string out = "MESHES = [\n";
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    if (scene.model.walls[w].kind != Wall::Kind::Mesh) continue;
    refuseInterpolatedMotion(scene, w, "Yade");
    const MeshWall& wall = *scene.model.walls[w].mesh;
    const WallMotion& m = wall.motion;
    Vec3 v = Vec3::Zero(), omega = Vec3::Zero(), c = Vec3::Zero();
    if (m.kind == WallMotion::Kind::Velocity) {
      v = m.linear;
      omega = m.angular;
      c = m.center;
      if (v.cross(omega).norm() > 1e-12 * v.norm() * omega.norm())
        refuse(scene, "walls[" + std::to_string(w) + "].motion", "Yade",
               "a linear velocity " + tuple3(v) + " across the angular velocity " + tuple3(omega) +
                   " moves the rotation axis sideways, and Yade's RotationEngine turns about a fixed "
                   "zeroPoint (only a velocity along the axis combines faithfully)");
    }
    const TriangleMesh mesh = meshAtStart(wall);
    out += "  (" + std::to_string(w) + ", [  # " + wall.file + " x " + number(wall.scale) + "\n";
    for (std::size_t t = 0; t < mesh.size(); ++t) {
      out += "    (" + tuple3(mesh.corner(t, 0)) + ", " + tuple3(mesh.corner(t, 1)) + ", " +
             tuple3(mesh.corner(t, 2)) + "),\n";
    }
    out += "  ], " + tuple3(v) + ", " + tuple3(omega) + ", " + tuple3(c) + "),\n";
  }
  return out + "]\n";
}

}  // namespace clumplab::exporting
