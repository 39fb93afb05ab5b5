#include "MeshWallOverlay.hpp"

#include <cmath>

namespace clumplab::render {

namespace {
const QColor kFace(150, 185, 215, 56);
const QColor kEdge(90, 120, 160, 90);
const QColor kFeatureEdge(55, 80, 115, 230);
const double kSharpCos = std::cos(20.0 * M_PI / 180.0);

// The wall's vertices in the world at time t [m].
std::vector<Vec3> posedVertices(const MeshWall& wall, double time) {
  const WallPose pose = wall.poseAt(time);
  const Mat3 r = pose.orientation.toRotationMatrix();
  const std::vector<Vec3>& local = wall.shape->mesh().vertices;
  std::vector<Vec3> out(local.size());
  for (std::size_t i = 0; i < local.size(); ++i) out[i] = pose.position + r * local[i];
  return out;
}
}  // namespace

void buildMeshWallOverlays(const std::vector<Wall>& meshWalls, double time, OverlayGeometry& out) {
  for (const Wall& w : meshWalls) {
    const MeshWallShape& shape = *w.mesh->shape;
    const std::vector<Vec3> x = posedVertices(*w.mesh, time);
    for (const auto& t : shape.mesh().triangles) out.patches.addFlat(x[t[0]], x[t[1]], x[t[2]], kFace);
    for (std::size_t e = 0; e < shape.edgeCount(); ++e) {
      const auto tris = shape.edgeTriangles(e);
      const bool feature =
          tris.size() != 2 ||
          std::abs(shape.triangleNormal(tris[0]).dot(shape.triangleNormal(tris[1]))) < kSharpCos;
      const auto& [a, b] = shape.edges()[e];
      out.tested.add(x[a], x[b], feature ? kFeatureEdge : kEdge, feature ? 1.6f : 1.0f);
    }
  }
}

void growByMeshWalls(const std::vector<Wall>& meshWalls, double time, Vec3& lower, Vec3& upper) {
  for (const Wall& w : meshWalls) {
    for (const Vec3& p : posedVertices(*w.mesh, time)) {
      lower = lower.cwiseMin(p);
      upper = upper.cwiseMax(p);
    }
  }
}

}  // namespace clumplab::render
