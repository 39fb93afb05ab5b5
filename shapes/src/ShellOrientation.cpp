#include "ShellOrientation.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <unordered_map>

#include "MeshTopology.hpp"
#include "shapes/TriangleBvh.hpp"
#include "shapes/WindingNumber.hpp"

namespace clumplab::shapes::detail {

std::vector<double> shellVolumes(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                 std::size_t shells, const Vec3& origin) {
  std::vector<double> volume(shells, 0.0);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const Vec3 a = m.corner(t, 0) - origin, b = m.corner(t, 1) - origin, c = m.corner(t, 2) - origin;
    volume[shellOf[t]] += a.dot(b.cross(c)) / 6.0;
  }
  return volume;
}

std::vector<bool> closedShellInversions(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                        const std::vector<double>& volume) {
  const std::size_t shells = volume.size();
  std::vector<bool> invert(shells, false);
  if (shells == 1) {
    invert[0] = volume[0] < 0.0;
    return invert;
  }
  const TriangleBvh bvh(std::make_shared<const TriangleMesh>(m));
  std::vector<std::uint32_t> firstTriangle(shells, kNone);
  for (std::uint32_t t = 0; t < m.triangles.size(); ++t) {
    if (firstTriangle[shellOf[t]] == kNone) firstTriangle[shellOf[t]] = t;
  }
  std::unordered_map<std::uint32_t, int> crossings;
  for (std::uint32_t s = 0; s < shells; ++s) {
    const std::uint32_t t = firstTriangle[s];
    const Vec3 p = (m.corner(t, 0) + m.corner(t, 1) + m.corner(t, 2)) / 3.0;
    crossings.clear();
    bvh.forEachCrossingBeyond(p, [&](std::uint32_t u, int) {
      if (shellOf[u] != s) ++crossings[shellOf[u]];
    });
    int depth = 0;
    for (const auto& [other, count] : crossings) depth += count % 2;
    const bool wantPositive = depth % 2 == 0;
    invert[s] = volume[s] != 0.0 && (volume[s] > 0.0) != wantPositive;
  }
  return invert;
}

namespace {

// An edge's uses: the piece of each triangle on it and the direction it runs the edge (+1 from the
// smaller vertex index to the larger).
using EdgeUses = std::vector<std::pair<std::uint32_t, int>>;

// Every edge's uses.
std::vector<EdgeUses> edgeUses(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf) {
  struct Use {
    std::uint64_t key;
    std::uint32_t piece;
    int direction;
  };
  std::vector<Use> uses;
  uses.reserve(3 * m.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = m.triangles[t][k], b = m.triangles[t][(k + 1) % 3];
      uses.push_back(
          {(static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b), shellOf[t], a < b ? 1 : -1});
    }
  }
  std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) { return x.key < y.key; });
  std::vector<EdgeUses> edges;
  for (std::size_t i = 0; i < uses.size();) {
    EdgeUses& e = edges.emplace_back();
    std::size_t j = i;
    for (; j < uses.size() && uses[j].key == uses[i].key; ++j)
      e.emplace_back(uses[j].piece, uses[j].direction);
    i = j;
  }
  return edges;
}

// Relative turns of the pieces joined at non-manifold edges (+1 keep, -1 turn) and their groups.
void agreeAtNonManifoldEdges(const std::vector<EdgeUses>& edges, const std::vector<std::size_t>& pieceSize,
                             std::vector<int>& sign, std::vector<std::uint32_t>& group, std::size_t& groups) {
  const std::size_t pieces = pieceSize.size();
  std::vector<std::vector<std::uint32_t>> edgesOf(pieces);
  for (std::uint32_t e = 0; e < edges.size(); ++e) {
    if (edges[e].size() <= 2) continue;  // only non-manifold edges join pieces
    for (const auto& [piece, direction] : edges[e]) {
      if (edgesOf[piece].empty() || edgesOf[piece].back() != e) edgesOf[piece].push_back(e);
    }
  }
  // The unpaired uses left on q's edges if q takes sign s (pieces not yet turned do not count).
  const auto unpaired = [&](std::uint32_t q, int s) {
    int total = 0;
    for (const std::uint32_t e : edgesOf[q]) {
      int net = 0;
      for (const auto& [piece, direction] : edges[e]) net += direction * (piece == q ? s : sign[piece]);
      total += std::abs(net);
    }
    return total;
  };
  std::vector<std::uint32_t> order(pieces);
  for (std::uint32_t p = 0; p < pieces; ++p) order[p] = p;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return pieceSize[a] > pieceSize[b]; });
  sign.assign(pieces, 0);
  group.assign(pieces, 0);
  groups = 0;
  std::vector<std::uint32_t> queue;
  for (const std::uint32_t anchor : order) {
    if (sign[anchor] != 0) continue;
    const auto g = static_cast<std::uint32_t>(groups++);
    sign[anchor] = 1;
    group[anchor] = g;
    queue.assign(1, anchor);
    while (!queue.empty()) {
      const std::uint32_t p = queue.back();
      queue.pop_back();
      for (const std::uint32_t e : edgesOf[p]) {
        for (const auto& [q, direction] : edges[e]) {
          if (sign[q] != 0) continue;
          sign[q] = unpaired(q, -1) < unpaired(q, 1) ? -1 : 1;
          group[q] = g;
          queue.push_back(q);
        }
      }
    }
  }
}

}  // namespace

std::vector<bool> openShellInversions(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                      std::size_t shells) {
  std::vector<std::size_t> pieceSize(shells, 0);
  for (const std::uint32_t s : shellOf) ++pieceSize[s];
  std::vector<int> sign;
  std::vector<std::uint32_t> group;
  std::size_t groups = 0;
  const std::vector<EdgeUses> edges = edgeUses(m, shellOf);
  agreeAtNonManifoldEdges(edges, pieceSize, sign, group, groups);

  // Each group outwards: its signed volume about its area-weighted centre, the pieces as turned.
  std::vector<Vec3> centre(groups, Vec3::Zero());
  std::vector<double> area(groups, 0.0), volume(groups, 0.0);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const double a = 0.5 * (m.corner(t, 1) - m.corner(t, 0)).cross(m.corner(t, 2) - m.corner(t, 0)).norm();
    const std::uint32_t g = group[shellOf[t]];
    area[g] += a;
    centre[g] += a * (m.corner(t, 0) + m.corner(t, 1) + m.corner(t, 2)) / 3.0;
  }
  for (std::size_t g = 0; g < groups; ++g) {
    if (area[g] > 0.0) centre[g] /= area[g];
  }
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const std::uint32_t s = shellOf[t], g = group[s];
    const Vec3 a = m.corner(t, 0) - centre[g], b = m.corner(t, 1) - centre[g], c = m.corner(t, 2) - centre[g];
    volume[g] += sign[s] * a.dot(b.cross(c)) / 6.0;
  }
  for (std::size_t s = 0; s < shells; ++s) {
    if (volume[group[s]] < 0.0) sign[s] = -sign[s];
  }
  TriangleMesh turned = m;
  for (std::size_t t = 0; t < turned.triangles.size(); ++t) {
    if (sign[shellOf[t]] < 0) std::swap(turned.triangles[t][1], turned.triangles[t][2]);
  }

  // Closed groups (whose edges' uses, as turned, all cancel) lying inside the others are cavities.
  std::vector<bool> closed(groups, true), cavity(groups, false);
  for (const EdgeUses& e : edges) {
    int net = 0;
    for (const auto& [piece, direction] : e) net += direction * sign[piece];
    if (net != 0) {
      for (const auto& [piece, direction] : e) closed[group[piece]] = false;
    }
  }
  if (groups > 1 && std::find(closed.begin(), closed.end(), true) != closed.end()) {
    const TriangleBvh bvh(std::make_shared<const TriangleMesh>(turned));
    const WindingNumberTree winding(bvh);
    std::vector<std::vector<std::uint32_t>> trianglesOf(groups);
    for (std::uint32_t t = 0; t < turned.triangles.size(); ++t) trianglesOf[group[shellOf[t]]].push_back(t);
    for (std::size_t g = 0; g < groups; ++g) {
      if (!closed[g]) continue;
      bool inside = true;
      const std::size_t n = trianglesOf[g].size(), probes = std::min<std::size_t>(8, n);
      for (std::size_t k = 0; k < probes && inside; ++k) {
        const std::uint32_t t = trianglesOf[g][k * n / probes];
        const Vec3& a = turned.corner(t, 0);
        const Vec3& b = turned.corner(t, 1);
        const Vec3& c = turned.corner(t, 2);
        const Vec3 twiceArea = (b - a).cross(c - a);
        const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
        if (!(twiceArea.norm() > 0.0)) continue;
        // Just behind the face, inside the group, whose own winding number is 1 there.
        const Vec3 p = (a + b + c) / 3.0 - 1e-3 * (twiceArea.norm() / longest) * twiceArea.normalized();
        inside = std::lround(winding.at(p) - 1.0) % 2 != 0;
      }
      cavity[g] = inside;
    }
  }
  std::vector<bool> invert(shells, false);
  for (std::size_t s = 0; s < shells; ++s) invert[s] = (sign[s] < 0) != cavity[group[s]];
  return invert;
}

}  // namespace clumplab::shapes::detail
