#pragma once
// A triangle mesh as a solid: an inside test, spans along x, distances to the surface. A closed,
// consistently oriented 2-manifold mesh is classified exactly by the non-zero winding rule on exact
// ray crossings (correct for concave meshes, meshes with holes through them such as a torus, several
// shells, and cavities bounded by inward-facing shells). Any other mesh (holes, non-manifold edges,
// inconsistent orientation, overlapping shells) by its generalized winding number: inside where
// w >= 1/2 (WindingNumber.hpp), within the mesh's bounding box.
#include <memory>

#include "core/clump/Solid.hpp"
#include "shapes/TriangleBvh.hpp"

namespace clumplab::shapes {

namespace detail {
class WindingField;
}

class MeshSolid final : public Solid {
 public:
  enum class InsideRule {
    Crossings,      // exact: the winding number is 0 or 1 everywhere, the divergence theorem's solid
    WindingNumber,  // w >= 1/2: the solid the surface bounds "in spirit"; its mass is sampled
  };

  // Chooses the rule: Crossings for a closed 2-manifold mesh whose neighbours agree in orientation
  // and, when it has several shells, whose winding number is 0 or 1 on both sides of every triangle
  // (probed at its centre and half way to each corner: shells that overlap reach 2 there);
  // WindingNumber otherwise.
  explicit MeshSolid(std::shared_ptr<const TriangleMesh> mesh);
  MeshSolid(std::shared_ptr<const TriangleMesh> mesh, InsideRule rule);

  void bounds(Vec3& lower, Vec3& upper) const override;
  bool contains(const Vec3& point) const override;
  void spansAlongX(double y, double z, std::vector<Span>& out) const override;

  InsideRule insideRule() const { return rule_; }
  // The winding number at p: the exact crossing count under Crossings (an integer), the generalized
  // winding number (hierarchical) under WindingNumber.
  double windingNumber(const Vec3& p) const;
  // Under WindingNumber: the edges where the surface is open (WindingField::openEdges); 0 otherwise.
  std::size_t openEdges() const;

  // Distance from p to the surface [m] (infinite if none within maxDistance).
  double distanceToSurface(const Vec3& p, double maxDistance = std::numeric_limits<double>::infinity()) const;
  // Signed distance from p to the surface [m]: positive inside, negative outside.
  double signedDistance(const Vec3& p) const;

  const TriangleBvh& bvh() const { return bvh_; }
  const TriangleMesh& mesh() const { return bvh_.mesh(); }

 private:
  TriangleBvh bvh_;
  InsideRule rule_ = InsideRule::Crossings;
  std::shared_ptr<const detail::WindingField> winding_;  // WindingNumber only
};

}  // namespace clumplab::shapes
