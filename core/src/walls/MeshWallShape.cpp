#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "core/clump/ClosestPointOnTriangle.hpp"
#include "core/walls/MeshWall.hpp"

namespace clumplab {

namespace {
constexpr std::uint32_t kLeafSize = 4;

// Compressed rows: for each key in [0, n), the values paired with it, in the order given.
void compressedRows(std::size_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                    std::vector<std::uint32_t>& start, std::vector<std::uint32_t>& values) {
  start.assign(n + 1, 0);
  for (const auto& [key, value] : pairs) ++start[key + 1];
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  values.resize(pairs.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const auto& [key, value] : pairs) values[fill[key]++] = value;
}

}  // namespace

MeshWallShape::MeshWallShape(const TriangleMesh& input) {
  static std::atomic<std::uint64_t> shapes{0};
  serial_ = ++shapes;
  // Weld exactly coincident vertices (STL repeats every corner per triangle).
  std::map<std::tuple<double, double, double>, std::uint32_t> index;
  std::vector<std::uint32_t> remap(input.vertices.size());
  for (std::size_t i = 0; i < input.vertices.size(); ++i) {
    const Vec3& v = input.vertices[i];
    if (!v.allFinite()) throw std::invalid_argument("the mesh has a vertex that is not finite");
    const auto [it, added] = index.emplace(std::make_tuple(v.x(), v.y(), v.z()),
                                           static_cast<std::uint32_t>(mesh_.vertices.size()));
    if (added) mesh_.vertices.push_back(v);
    remap[i] = it->second;
  }
  for (const auto& tri : input.triangles) {
    if (tri[0] >= remap.size() || tri[1] >= remap.size() || tri[2] >= remap.size())
      throw std::invalid_argument("a triangle names a vertex the mesh does not have");
    const std::array<std::uint32_t, 3> t{remap[tri[0]], remap[tri[1]], remap[tri[2]]};
    const Vec3 &a = mesh_.vertices[t[0]], &b = mesh_.vertices[t[1]], &c = mesh_.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a);
    const double longest2 = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    if (!(n.norm() > 1e-12 * longest2)) continue;  // zero area (or a sliver of none to round-off)
    mesh_.triangles.push_back(t);
    normal_.push_back(n.normalized());
  }
  if (mesh_.triangles.empty()) throw std::invalid_argument("the mesh has no triangles of non-zero area");

  // Edges with their triangles, and the in-plane inward edge normals of each triangle.
  const std::size_t nt = mesh_.triangles.size();
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edgeIndex;
  triEdge_.resize(nt);
  edgeNormal_.resize(nt);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edgeTri, vertexEdge, vertexTri;
  for (std::uint32_t t = 0; t < nt; ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t i = mesh_.triangles[t][k], j = mesh_.triangles[t][(k + 1) % 3];
      const auto key = std::minmax(i, j);
      const auto [it, added] = edgeIndex.emplace(key, static_cast<std::uint32_t>(edges_.size()));
      if (added) {
        edges_.push_back({key.first, key.second});
        vertexEdge.emplace_back(key.first, it->second);
        vertexEdge.emplace_back(key.second, it->second);
      }
      triEdge_[t][k] = it->second;
      edgeTri.emplace_back(it->second, t);
      vertexTri.emplace_back(mesh_.triangles[t][k], t);
      const Vec3& p = mesh_.vertices[key.first];
      const Vec3& opposite = mesh_.vertices[mesh_.triangles[t][(k + 2) % 3]];
      Vec3 m = normal_[t].cross(mesh_.vertices[key.second] - p).normalized();
      if (m.dot(opposite - p) < 0.0) m = -m;
      edgeNormal_[t][k] = m;
    }
  }
  compressedRows(edges_.size(), edgeTri, edgeTriStart_, edgeTri_);
  compressedRows(mesh_.vertices.size(), vertexEdge, vertexEdgeStart_, vertexEdge_);
  compressedRows(mesh_.vertices.size(), vertexTri, vertexTriStart_, vertexTri_);
  // Coplanar neighbours on either side of an edge get edge normals of exactly opposite sign, so
  // their edge functions are exact negatives and a point on the edge is never claimed by both.
  for (std::uint32_t e = 0; e < edges_.size(); ++e) {
    if (edgeTriStart_[e + 1] - edgeTriStart_[e] != 2) continue;
    const std::uint32_t t1 = edgeTri_[edgeTriStart_[e]], t2 = edgeTri_[edgeTriStart_[e] + 1];
    if (normal_[t1].cross(normal_[t2]).norm() > 1e-12) continue;
    const int k1 =
        static_cast<int>(std::find(triEdge_[t1].begin(), triEdge_[t1].end(), e) - triEdge_[t1].begin());
    const int k2 =
        static_cast<int>(std::find(triEdge_[t2].begin(), triEdge_[t2].end(), e) - triEdge_[t2].begin());
    const Vec3 flipped = -edgeNormal_[t1][k1];
    const Vec3 opposite = mesh_.vertices[mesh_.triangles[t2][(k2 + 2) % 3]] - mesh_.vertices[edges_[e][0]];
    if (flipped.dot(opposite) > 0.0) edgeNormal_[t2][k2] = flipped;
  }

  // The hierarchy: median splits along the longest axis of the centroids' box.
  std::vector<Vec3> centroids(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    centroids[t] = (mesh_.corner(t, 0) + mesh_.corner(t, 1) + mesh_.corner(t, 2)) / 3.0;
  }
  order_.resize(nt);
  std::iota(order_.begin(), order_.end(), 0u);
  nodes_.reserve(2 * nt / kLeafSize + 2);
  nodes_.emplace_back();
  build(0, 0, static_cast<std::uint32_t>(nt), centroids);
  lower_ = nodes_[0].lower;
  upper_ = nodes_[0].upper;
}

void MeshWallShape::build(std::uint32_t node, std::uint32_t begin, std::uint32_t end,
                          const std::vector<Vec3>& centroids) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  Vec3 clo = lo, chi = hi;
  for (std::uint32_t i = begin; i < end; ++i) {
    for (int k = 0; k < 3; ++k) {
      lo = lo.cwiseMin(mesh_.corner(order_[i], k));
      hi = hi.cwiseMax(mesh_.corner(order_[i], k));
    }
    clo = clo.cwiseMin(centroids[order_[i]]);
    chi = chi.cwiseMax(centroids[order_[i]]);
  }
  nodes_[node].lower = lo;
  nodes_[node].upper = hi;
  if (end - begin <= kLeafSize) {
    nodes_[node].first = begin;
    nodes_[node].count = end - begin;
    return;
  }
  int axis = 0;
  (chi - clo).maxCoeff(&axis);
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) { return centroids[a][axis] < centroids[b][axis]; });
  const auto left = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  nodes_.emplace_back();
  nodes_[node].first = left;
  nodes_[node].count = 0;
  build(left, begin, mid, centroids);
  build(left + 1, mid, end, centroids);
}

template <class Visit>
void MeshWallShape::forNearLeaves(const Vec3& c, double r, Visit&& visit) const {
  if (!boxNear(nodes_[0], c, r)) return;
  std::uint32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::uint32_t index = stack[--top];
    const Node& n = nodes_[index];
    if (n.count > 0) {
      visit(index);
      continue;
    }
    for (std::uint32_t child = n.first; child < n.first + 2; ++child) {
      if (boxNear(nodes_[child], c, r) && top < 64) stack[top++] = child;
    }
  }
}

void MeshWallShape::nearTriangles(const Vec3& c, double r, std::vector<std::uint32_t>& out) const {
  out.clear();
  forNearLeaves(c, r, [&](std::uint32_t leaf) {
    const Node& n = nodes_[leaf];
    for (std::uint32_t i = n.first; i < n.first + n.count; ++i) out.push_back(order_[i]);
  });
}

void MeshWallShape::near(const Vec3& c0, double reach, std::vector<NearTriangle>& out) const {
  out.clear();
  forNearLeaves(c0, reach, [&](std::uint32_t leaf) {
    const Node& n = nodes_[leaf];
    for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
      if (planeDistance(order_[i], c0) < reach) out.push_back({leaf, order_[i]});
    }
  });
}

void MeshWallShape::nearFrom(std::span<const NearTriangle> list, const Vec3& c, double r,
                             std::vector<std::uint32_t>& out) const {
  out.clear();
  std::uint32_t leaf = std::numeric_limits<std::uint32_t>::max();
  bool leafNear = false;
  for (const NearTriangle& t : list) {
    if (t.leaf != leaf) {
      leaf = t.leaf;
      leafNear = boxNear(nodes_[leaf], c, r);
    }
    if (leafNear && planeDistance(t.triangle, c) < r) out.push_back(t.triangle);
  }
}

double MeshWallShape::edgeFunction(std::uint32_t t, int k, const Vec3& c) const {
  return edgeNormal_[t][k].dot(c - mesh_.vertices[edges_[triEdge_[t][k]][0]]);
}

double MeshWallShape::edgeParameter(std::uint32_t e, const Vec3& c) const {
  const Vec3& p = mesh_.vertices[edges_[e][0]];
  const Vec3 d = mesh_.vertices[edges_[e][1]] - p;
  return d.dot(c - p) / d.squaredNorm();
}

bool MeshWallShape::faceClaims(std::uint32_t t, const Vec3& c) const {
  return edgeFunction(t, 0, c) > 0.0 && edgeFunction(t, 1, c) > 0.0 && edgeFunction(t, 2, c) > 0.0;
}

void MeshWallShape::touch(const Vec3& c, double r, std::vector<MeshTouch>& out,
                          std::vector<std::uint32_t>& scratch) const {
  nearTriangles(c, r, scratch);
  touchCandidates(c, r, out, scratch);
}

void MeshWallShape::touchCandidates(const Vec3& c, double r, std::vector<MeshTouch>& out,
                                    std::vector<std::uint32_t>& scratch) const {
  out.clear();
  // Every feature of a triangle lies in its plane: a triangle whose plane is r or more away from c
  // contributes nothing (most candidates of a hollow mesh, whose boxes cover its inside).
  std::erase_if(scratch, [&](std::uint32_t t) { return planeDistance(t, c) >= r; });
  if (scratch.empty()) return;
  const auto seen = [&](MeshFeature f) {
    for (const MeshTouch& t : out) {
      if (t.feature.kind == f.kind && t.feature.index == f.index) return true;
    }
    return false;
  };
  // A point feature's contact when it is within r of c (and not c itself).
  const auto within = [&](const Vec3& point, MeshTouch& touch) {
    const Vec3 d = c - point;
    const double dist = d.norm();
    if (!(dist < r && dist > 0.0)) return false;
    touch.normal = d / dist;
    touch.distance = dist;
    return true;
  };
  // Faces (each candidate once), then the edges and vertices of the candidates (each once).
  for (const std::uint32_t t : scratch) {
    if (!faceClaims(t, c)) continue;
    const double s = normal_[t].dot(c - mesh_.corner(t, 0));  // signed distance to the plane
    if (std::abs(s) >= r) continue;
    out.push_back({{MeshFeature::Kind::Face, t}, s < 0.0 ? Vec3(-normal_[t]) : normal_[t], std::abs(s)});
  }
  for (const std::uint32_t t : scratch) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t e = triEdge_[t][k];
      const double u = edgeParameter(e, c);
      if (!(u > 0.0 && u < 1.0)) continue;
      // The cheap tests first (distance, then whether it is already in), the regions' last.
      MeshTouch touch{{MeshFeature::Kind::Edge, e}};
      const Vec3& p = mesh_.vertices[edges_[e][0]];
      if (!within(p + u * (mesh_.vertices[edges_[e][1]] - p), touch) || seen(touch.feature)) continue;
      bool claimed = false;
      for (std::uint32_t i = edgeTriStart_[e]; i < edgeTriStart_[e + 1] && !claimed; ++i) {
        const std::uint32_t other = edgeTri_[i];
        for (int j = 0; j < 3; ++j) {
          if (triEdge_[other][j] == e) claimed = claimed || edgeFunction(other, j, c) > 0.0;
        }
      }
      if (!claimed) out.push_back(touch);
    }
  }
  for (const std::uint32_t t : scratch) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = mesh_.triangles[t][k];
      MeshTouch touch{{MeshFeature::Kind::Vertex, v}};
      if (!within(mesh_.vertices[v], touch) || seen(touch.feature)) continue;
      bool inRegion = true;
      for (std::uint32_t i = vertexEdgeStart_[v]; i < vertexEdgeStart_[v + 1] && inRegion; ++i) {
        const std::uint32_t e = vertexEdge_[i];
        const double u = edgeParameter(e, c);
        inRegion = edges_[e][0] == v ? u <= 0.0 : u >= 1.0;
      }
      for (std::uint32_t i = vertexTriStart_[v]; i < vertexTriStart_[v + 1] && inRegion; ++i) {
        inRegion = !faceClaims(vertexTri_[i], c);
      }
      if (inRegion) out.push_back(touch);
    }
  }
}

double MeshWallShape::distance(const Vec3& p, double maxDistance) const {
  std::vector<std::uint32_t> near;
  nearTriangles(p, maxDistance, near);
  double best = maxDistance;
  for (const std::uint32_t t : near) {
    best = std::min(
        best, (p - closestOnTriangle(p, mesh_.corner(t, 0), mesh_.corner(t, 1), mesh_.corner(t, 2))).norm());
  }
  return best;
}

}  // namespace clumplab
