#include "MeshTopology.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "core/base/Errors.hpp"

namespace clumplab::shapes::detail {

std::string where(const Vec3& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g) m", p.x(), p.y(), p.z());
  return buf;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Topology analyse(const TriangleMesh& m) {
  struct Use {
    std::uint64_t key;
    std::uint32_t triangle;
    std::uint8_t corner;  // the edge from corner k to corner k+1
    bool forward;         // runs from the smaller vertex index to the larger
  };
  std::vector<Use> uses;
  uses.reserve(3 * m.triangles.size());
  for (std::uint32_t t = 0; t < m.triangles.size(); ++t) {
    for (std::uint8_t k = 0; k < 3; ++k) {
      const std::uint32_t a = m.triangles[t][k], b = m.triangles[t][(k + 1) % 3];
      const std::uint64_t key = (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
      uses.push_back({key, t, k, a < b});
    }
  }
  std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) { return x.key < y.key; });
  Topology topo;
  topo.neighbour.assign(m.triangles.size(), {kNone, kNone, kNone});
  topo.sameDirection.assign(m.triangles.size(), {false, false, false});
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i;
    while (j < uses.size() && uses[j].key == uses[i].key) ++j;
    if (j - i == 1) {
      const Use& u = uses[i];
      topo.boundary.emplace_back(m.triangles[u.triangle][u.corner],
                                 m.triangles[u.triangle][(u.corner + 1) % 3]);
    } else if (j - i == 2) {
      const Use& a = uses[i];
      const Use& b = uses[i + 1];
      topo.neighbour[a.triangle][a.corner] = b.triangle;
      topo.neighbour[b.triangle][b.corner] = a.triangle;
      topo.sameDirection[a.triangle][a.corner] = topo.sameDirection[b.triangle][b.corner] =
          a.forward == b.forward;
    } else {
      if (topo.nonManifoldEdges == 0)
        topo.nonManifoldAt = m.vertices[static_cast<std::uint32_t>(uses[i].key >> 32)];
      ++topo.nonManifoldEdges;
    }
    i = j;
  }
  return topo;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> unpairedEdges(const TriangleMesh& m) {
  std::vector<std::pair<std::uint64_t, int>> uses;  // (smaller << 32 | larger, +1 forward or -1)
  uses.reserve(3 * m.triangles.size());
  for (const auto& t : m.triangles) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = t[k], b = t[(k + 1) % 3];
      uses.emplace_back((static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b), a < b ? 1 : -1);
    }
  }
  std::sort(uses.begin(), uses.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> open;
  for (std::size_t i = 0; i < uses.size();) {
    int net = 0;
    std::size_t j = i;
    for (; j < uses.size() && uses[j].first == uses[i].first; ++j) net += uses[j].second;
    const auto small = static_cast<std::uint32_t>(uses[i].first >> 32);
    const auto large = static_cast<std::uint32_t>(uses[i].first & 0xffffffffu);
    if (net > 0) open.emplace_back(small, large);
    if (net < 0) open.emplace_back(large, small);
    i = j;
  }
  return open;
}

std::size_t countShells(const Topology& topo) {
  const std::size_t n = topo.neighbour.size();
  std::vector<bool> seen(n, false);
  std::vector<std::uint32_t> queue;
  std::size_t shells = 0;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (seen[seed]) continue;
    ++shells;
    seen[seed] = true;
    queue.assign(1, seed);
    while (!queue.empty()) {
      const std::uint32_t t = queue.back();
      queue.pop_back();
      for (const std::uint32_t u : topo.neighbour[t]) {
        if (u != kNone && !seen[u]) {
          seen[u] = true;
          queue.push_back(u);
        }
      }
    }
  }
  return shells;
}

std::vector<BoundaryLoop> holeLoops(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  std::unordered_multimap<std::uint32_t, std::size_t> outgoing;
  std::unordered_set<std::uint32_t> ends;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    outgoing.emplace(edges[e].first, e);
    ends.insert(edges[e].second);
  }
  std::vector<bool> used(edges.size(), false);
  const auto unusedFrom = [&](std::uint32_t v) {
    const auto range = outgoing.equal_range(v);
    for (auto it = range.first; it != range.second; ++it) {
      if (!used[it->second]) return it->second;
    }
    return edges.size();
  };
  // Chains start at their free ends (a start no edge ends at) first, so that each is whole.
  std::vector<std::size_t> starts;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (!ends.contains(edges[e].first)) starts.push_back(e);
  }
  for (std::size_t e = 0; e < edges.size(); ++e) starts.push_back(e);
  // Walks the edges; coming back to a vertex of the walk closes the loop from there (a vertex two
  // holes share is passed twice: each hole becomes a loop of its own), a walk that cannot go on is an
  // open chain.
  std::vector<BoundaryLoop> loops;
  std::unordered_map<std::uint32_t, std::size_t> at;  // vertex -> its place in the walk
  for (const std::size_t start : starts) {
    if (used[start]) continue;
    std::vector<std::uint32_t> walk = {edges[start].first};
    at.clear();
    at[walk[0]] = 0;
    for (std::size_t e = start; e != edges.size(); e = unusedFrom(walk.back())) {
      used[e] = true;
      const std::uint32_t next = edges[e].second;
      if (const auto seen = at.find(next); seen != at.end()) {
        const std::size_t from = seen->second;
        loops.push_back({{walk.begin() + static_cast<std::ptrdiff_t>(from), walk.end()}, true});
        for (std::size_t k = from + 1; k < walk.size(); ++k) at.erase(walk[k]);
        walk.resize(from + 1);
      } else {
        at[next] = walk.size();
        walk.push_back(next);
      }
    }
    if (walk.size() > 1) loops.push_back({std::move(walk), false});
  }
  return loops;
}

MeshHole describeHole(const TriangleMesh& m, const BoundaryLoop& loop) {
  MeshHole h;
  const std::vector<std::uint32_t>& v = loop.vertices;
  h.edges = loop.closed ? v.size() : v.size() - 1;
  for (std::size_t k = 0; k < v.size(); ++k) {
    h.center += m.vertices[v[k]];
    if (k + 1 < v.size() || loop.closed)
      h.perimeter += (m.vertices[v[(k + 1) % v.size()]] - m.vertices[v[k]]).norm();
  }
  h.center /= static_cast<double>(v.size());
  return h;
}

// Merges vertices closer than `tolerance` (a hash grid of that cell size; each vertex joins the
// first earlier vertex within reach), then drops triangles that collapsed or now repeat. Returns
// the number of vertices merged.
std::size_t weldNearby(TriangleMesh& m, double tolerance, std::size_t& degenerate, std::size_t& duplicates) {
  // Cells counted from the lowest corner, so their indices stay near diagonal / tolerance (1e6 for
  // the 1e-6 of the diagonal the caller uses) wherever the mesh lies; hashed in unsigned arithmetic.
  // The cell is at least the tolerance (so the 27 cells around a vertex hold everything within
  // reach) and at least 1e-15 of the vertices' extent, so an index never leaves int64 even when an
  // unreferenced vertex lies far from the triangles the tolerance was taken from.
  Vec3 lower = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 upper = -lower;
  for (const Vec3& v : m.vertices) {
    lower = lower.cwiseMin(v);
    upper = upper.cwiseMax(v);
  }
  const double cell = std::max(tolerance, 1e-15 * (upper - lower).maxCoeff());
  const auto cellOf = [&](const Vec3& v) {
    return Eigen::Vector3d(((v - lower) / cell).array().floor()).cast<std::int64_t>().eval();
  };
  const auto key = [](const Eigen::Matrix<std::int64_t, 3, 1>& c) {
    return (static_cast<std::uint64_t>(c.x()) * 73856093u) ^ (static_cast<std::uint64_t>(c.y()) * 19349663u) ^
           (static_cast<std::uint64_t>(c.z()) * 83492791u);
  };
  std::unordered_multimap<std::uint64_t, std::uint32_t> grid;
  std::vector<std::uint32_t> target(m.vertices.size());
  std::size_t merged = 0;
  for (std::uint32_t i = 0; i < m.vertices.size(); ++i) {
    const auto c = cellOf(m.vertices[i]);
    target[i] = i;
    for (int dz = -1; dz <= 1 && target[i] == i; ++dz)
      for (int dy = -1; dy <= 1 && target[i] == i; ++dy)
        for (int dx = -1; dx <= 1 && target[i] == i; ++dx) {
          const auto range = grid.equal_range(key(c + Eigen::Matrix<std::int64_t, 3, 1>(dx, dy, dz)));
          for (auto it = range.first; it != range.second; ++it) {
            if ((m.vertices[it->second] - m.vertices[i]).norm() <= tolerance) {
              target[i] = it->second;
              break;
            }
          }
        }
    if (target[i] == i) {
      grid.emplace(key(c), i);
    } else {
      ++merged;
    }
  }
  if (merged == 0) return 0;
  std::unordered_set<Triangle, TriangleHash> seen;
  std::vector<Triangle> kept;
  for (Triangle t : m.triangles) {
    for (auto& v : t) v = target[v];
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
      ++degenerate;
      continue;
    }
    Triangle sorted = t;
    std::sort(sorted.begin(), sorted.end());
    if (!seen.insert(sorted).second) {
      ++duplicates;
      continue;
    }
    kept.push_back(t);
  }
  m.triangles = std::move(kept);
  return merged;
}

// Orients every shell consistently (breadth-first over shared edges) and numbers the shells.
// Returns the shell of each triangle; flips triangles in place and counts them in `flipped`.
std::vector<std::uint32_t> orientShells(TriangleMesh& m, const Topology& topo, const std::string& name,
                                        std::vector<bool>& flipped, std::size_t& shells) {
  const std::size_t n = m.triangles.size();
  std::vector<std::uint32_t> shell(n, kNone);
  std::vector<bool> flip(n, false);
  std::vector<std::uint32_t> queue;
  shells = 0;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (shell[seed] != kNone) continue;
    const auto id = static_cast<std::uint32_t>(shells++);
    shell[seed] = id;
    queue.assign(1, seed);
    while (!queue.empty()) {
      const std::uint32_t t = queue.back();
      queue.pop_back();
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t u = topo.neighbour[t][k];
        if (u == kNone) continue;
        // Neighbours must run along their shared edge in opposite directions.
        const bool wanted = flip[t] != topo.sameDirection[t][k];
        if (shell[u] == kNone) {
          shell[u] = id;
          flip[u] = wanted;
          queue.push_back(u);
        } else if (flip[u] != wanted) {
          throw InputError(name, "",
                           "the surface is not orientable (like a Moebius strip): no consistent inside "
                           "and outside near " +
                               where(m.vertices[m.triangles[t][k]]));
        }
      }
    }
  }
  for (std::size_t t = 0; t < n; ++t) {
    if (flip[t]) std::swap(m.triangles[t][1], m.triangles[t][2]);
    flipped[t] = flipped[t] != flip[t];
  }
  return shell;
}

}  // namespace clumplab::shapes::detail
