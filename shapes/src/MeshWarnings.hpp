#pragma once
// The warnings of a mesh report, one sentence each (private to shapes; prepareMesh's).
#include <optional>
#include <string>
#include <vector>

#include "MeshTopology.hpp"
#include "core/clump/MassProperties.hpp"

namespace clumplab::shapes::detail {

// What prepareMesh did, from the report and: the holes once seams were welded (before repair), the
// place of the first non-manifold edge, whether repair was asked for and the largest perimeter it
// closes [m], and the sampled mass properties of a mesh that is not closed.
std::vector<std::string> meshWarnings(const MeshReport& report, const HoleSurvey& holes,
                                      const Vec3& nonManifoldAt, bool repair, double repairLimit,
                                      const std::optional<MassProperties>& sampled);

}  // namespace clumplab::shapes::detail
