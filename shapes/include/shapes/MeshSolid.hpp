#pragma once
// A closed triangle mesh as a solid: inside by the non-zero winding rule (correct for concave
// meshes, meshes with holes through them such as a torus, several shells, and cavities bounded by
// inward-facing shells), spans along x from sorted signed crossings, distances to the surface.
#include <memory>

#include "core/clump/Solid.hpp"
#include "shapes/TriangleBvh.hpp"

namespace clumplab::shapes {

class MeshSolid final : public Solid {
 public:
  explicit MeshSolid(std::shared_ptr<const TriangleMesh> mesh);

  void bounds(Vec3& lower, Vec3& upper) const override;
  bool contains(const Vec3& point) const override;
  void spansAlongX(double y, double z, std::vector<Span>& out) const override;

  // Distance from p to the surface [m] (infinite if none within maxDistance).
  double distanceToSurface(const Vec3& p, double maxDistance = std::numeric_limits<double>::infinity()) const;

  const TriangleBvh& bvh() const { return bvh_; }
  const TriangleMesh& mesh() const { return bvh_.mesh(); }

 private:
  TriangleBvh bvh_;
};

}  // namespace clumplab::shapes
