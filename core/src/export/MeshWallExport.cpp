#include "MeshWallExport.hpp"

#include <fstream>

#include "ExportChecks.hpp"

namespace clumplab::exporting {

TriangleMesh meshAtStart(const MeshWall& wall) {
  TriangleMesh mesh = wall.shape->mesh();  // welded, scaled, in the wall's frame
  const WallPose pose = wall.poseAt(0.0);
  for (Vec3& v : mesh.vertices) v = pose.position + pose.orientation * v;
  return mesh;
}

void writeAsciiStl(const TriangleMesh& mesh, const std::string& solidName,
                   const std::filesystem::path& path) {
  AtomicOutputFile outFile = openOutput(path);
  std::ofstream& out = outFile.stream();
  out << "solid " << solidName << "\n";
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
    const Vec3 n = (b - a).cross(c - a).normalized();
    out << "  facet normal " << number(n.x()) << " " << number(n.y()) << " " << number(n.z())
        << "\n    outer loop\n";
    for (const Vec3* v : {&a, &b, &c})
      out << "      vertex " << number(v->x()) << " " << number(v->y()) << " " << number(v->z()) << "\n";
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid " << solidName << "\n";
  outFile.commit();
}

std::string meshWallFileName(std::size_t wallIndex) {
  return "meshes/wall" + std::to_string(wallIndex) + ".stl";
}

void refuseInterpolatedMotion(const Scene& scene, std::size_t wallIndex, const std::string& engine) {
  const MeshWall& wall = *scene.model.walls[wallIndex].mesh;
  if (wall.motion.kind != WallMotion::Kind::Interpolated) return;
  refuse(scene, "walls[" + std::to_string(wallIndex) + "].motion", engine,
         "keyframed (interpolated) motion, linear in position and slerp in orientation between " +
             std::to_string(wall.motion.times.size()) +
             " keys, has no faithful counterpart in its mesh kinematics (use a \"velocity\" motion, or "
             "run the scene in ClumpLab)");
}

}  // namespace clumplab::exporting
