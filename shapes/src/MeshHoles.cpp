// The holes of an open mesh: their survey for messages and, with repair, closing the small ones.
#include <algorithm>

#include "MeshTopology.hpp"

namespace clumplab::shapes::detail {

HoleSurvey surveyHoles(const TriangleMesh& m, const Topology& topo) {
  HoleSurvey survey;
  survey.loops = holeLoops(topo.boundary);
  for (const auto& loop : survey.loops) survey.holes.push_back(describeHole(m, loop));
  if (survey.holes.empty()) return survey;
  survey.largest = static_cast<std::size_t>(
      std::max_element(survey.holes.begin(), survey.holes.end(),
                       [](const MeshHole& a, const MeshHole& b) { return a.perimeter < b.perimeter; }) -
      survey.holes.begin());
  const MeshHole& largest = survey.holes[survey.largest];
  survey.summary = std::to_string(topo.boundary.size()) +
                   " boundary edges (edges of only one triangle) around " +
                   std::to_string(survey.holes.size()) + (survey.holes.size() == 1 ? " hole" : " holes") +
                   "; the largest has " + std::to_string(largest.edges) + " edges and a perimeter of " +
                   number(largest.perimeter) + " m, around " + where(largest.center);
  return survey;
}

std::vector<MeshHole> closeHoles(TriangleMesh& m, const HoleSurvey& survey, double limit) {
  std::vector<MeshHole> closed;
  for (std::size_t h = 0; h < survey.loops.size(); ++h) {
    if (survey.holes[h].perimeter > limit || !survey.loops[h].closed) continue;
    const auto centre = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.push_back(survey.holes[h].center);
    const auto& loop = survey.loops[h].vertices;
    for (std::size_t k = 0; k < loop.size(); ++k)
      m.triangles.push_back({loop[(k + 1) % loop.size()], loop[k], centre});
    closed.push_back(survey.holes[h]);
  }
  return closed;
}

}  // namespace clumplab::shapes::detail
