// prepareMesh: welding, degenerate and duplicate triangles, the edge checks, holes, orientation of
// every shell (outwards, or inwards for a cavity), and the report. The topology itself is in
// MeshTopology.cpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "MeshTopology.hpp"
#include "core/base/Errors.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/TriangleBvh.hpp"

namespace clumplab::shapes {

using namespace detail;

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

struct BitsHash {
  std::size_t operator()(const Vec3& v) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 3; ++k) {
      const double x = v[k] == 0.0 ? 0.0 : v[k];  // +0 and -0 weld together
      std::uint64_t bits = 0;
      std::memcpy(&bits, &x, sizeof bits);
      h ^= bits + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    }
    return h;
  }
};

}  // namespace

PreparedMesh prepareMesh(const TriangleMesh& soup, const std::string& name, const MeshOptions& options) {
  MeshReport report;
  report.file = name;
  report.trianglesRead = soup.triangles.size();
  if (soup.triangles.empty()) throw InputError(name, "", "contains no triangles");
  if (soup.triangles.size() > options.maxTriangles) {
    throw InputError(name, "",
                     std::to_string(soup.triangles.size()) + " triangles exceed the limit of " +
                         std::to_string(options.maxTriangles) + " (raise it with --max-triangles)");
  }
  if (!(options.scale > 0.0) || !std::isfinite(options.scale))
    throw InputError(name, "", "the scale must be positive");

  // Scale, check and weld vertices at exactly equal positions.
  TriangleMesh m;
  std::unordered_map<Vec3, std::uint32_t, BitsHash> welded;
  welded.reserve(soup.vertices.size());
  std::vector<std::uint32_t> remap(soup.vertices.size(), kNone);
  const auto vertex = [&](std::size_t t, std::uint32_t i) {
    if (i >= soup.vertices.size()) {
      throw InputError(name, "",
                       "triangle " + std::to_string(t) + " refers to vertex " + std::to_string(i) +
                           ", which does not exist");
    }
    if (remap[i] != kNone) return remap[i];
    const Vec3 v = options.scale * soup.vertices[i];
    if (!v.allFinite()) {
      throw InputError(name, "",
                       "triangle " + std::to_string(t) + " has a coordinate that is not a finite number");
    }
    if (v.cwiseAbs().maxCoeff() > options.maxCoordinate) {
      throw InputError(name, "",
                       "triangle " + std::to_string(t) + " has a coordinate of " +
                           number(v.cwiseAbs().maxCoeff()) + " m, beyond " + number(options.maxCoordinate) +
                           " m: check the scale (STL has no units)");
    }
    const auto [it, inserted] = welded.emplace(v, static_cast<std::uint32_t>(m.vertices.size()));
    if (inserted) m.vertices.push_back(v);
    return remap[i] = it->second;
  };
  std::unordered_set<Triangle, TriangleHash> seen;
  seen.reserve(soup.triangles.size());
  for (std::size_t t = 0; t < soup.triangles.size(); ++t) {
    const Triangle tri = {vertex(t, soup.triangles[t][0]), vertex(t, soup.triangles[t][1]),
                          vertex(t, soup.triangles[t][2])};
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      ++report.degenerateDropped;
      continue;
    }
    const Vec3& a = m.vertices[tri[0]];
    const Vec3& b = m.vertices[tri[1]];
    const Vec3& c = m.vertices[tri[2]];
    const double longest2 = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    if (!((b - a).cross(c - a).norm() > 1e-12 * longest2)) {  // corners on one line
      ++report.degenerateDropped;
      continue;
    }
    Triangle key = tri;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) {
      ++report.duplicatesDropped;
      continue;
    }
    m.triangles.push_back(tri);
  }
  if (m.triangles.empty()) throw InputError(name, "", "every triangle is degenerate (zero area)");
  Vec3 lower, upper;
  meshBounds(m, lower, upper);
  const double diagonal = (upper - lower).norm();

  // Edges: exactly two triangles each. Seams are welded; holes are refused, or closed on request.
  Topology topo = analyse(m);
  if (!topo.boundary.empty()) {
    // Seams, whose copies of a vertex differ by round-off (a float STL's 1e-7, an exporter's 1e-16):
    // always welded within 1e-6 of the diagonal, with a warning. What stays open is a hole.
    report.verticesMergedNearby =
        weldNearby(m, 1e-6 * diagonal, report.degenerateDropped, report.duplicatesDropped);
    if (report.verticesMergedNearby > 0) topo = analyse(m);
    if (m.triangles.empty()) {
      throw InputError(name, "",
                       "no triangle is left once vertices closer than 1e-6 of the diagonal are welded");
    }
  }
  if (topo.nonManifoldEdges > 0) {
    throw InputError(name, "",
                     std::to_string(topo.nonManifoldEdges) +
                         " edges are shared by more than two triangles (non-manifold), the first near " +
                         where(topo.nonManifoldAt) +
                         ": a solid needs a closed surface whose every edge joins exactly two triangles");
  }
  std::vector<bool> flipped(m.triangles.size(), false);
  if (!topo.boundary.empty()) {
    const auto loops = holeLoops(topo.boundary);
    std::vector<MeshHole> holes;
    holes.reserve(loops.size());
    for (const auto& loop : loops) holes.push_back(describeHole(m, loop));
    const auto largest =
        std::max_element(holes.begin(), holes.end(),
                         [](const MeshHole& a, const MeshHole& b) { return a.perimeter < b.perimeter; });
    const std::string summary =
        std::to_string(topo.boundary.size()) + " boundary edges (edges of only one triangle) around " +
        std::to_string(holes.size()) + (holes.size() == 1 ? " hole" : " holes") + "; the largest has " +
        std::to_string(largest->edges) + " edges and a perimeter of " + number(largest->perimeter) +
        " m, around " + where(largest->center);
    if (!options.repair) {
      const std::string seams =
          report.verticesMergedNearby > 0
              ? " (after welding " + std::to_string(report.verticesMergedNearby) + " seam vertices)"
              : std::string();
      throw InputError(name, "",
                       "the mesh has a hole, not a seam: " + summary + seams +
                           ". Close it in a mesh editor, or pass --repair (\"repair\": true in a scene) "
                           "to close small holes");
    }
    const double limit = diagonal;
    if (largest->perimeter > limit) {
      throw InputError(name, "",
                       "the mesh is open: " + summary +
                           ". That hole is too large to close safely (--repair "
                           "closes holes whose perimeter is at most the bounding-box diagonal, " +
                           number(limit) + " m)");
    }
    // Close each hole with a fan around its centre, running each boundary edge the other way.
    for (std::size_t h = 0; h < loops.size(); ++h) {
      const auto centre = static_cast<std::uint32_t>(m.vertices.size());
      m.vertices.push_back(holes[h].center);
      const auto& loop = loops[h];
      for (std::size_t k = 0; k < loop.size(); ++k) {
        m.triangles.push_back({loop[(k + 1) % loop.size()], loop[k], centre});
      }
    }
    report.holesClosed = holes;
    flipped.resize(m.triangles.size(), false);
    topo = analyse(m);
    if (!topo.boundary.empty() || topo.nonManifoldEdges > 0) {
      throw InputError(name, "",
                       "the mesh is open and its holes could not be closed (" +
                           std::to_string(topo.boundary.size()) + " boundary edges remain)");
    }
  }

  // One orientation per shell, then each shell outwards or, inside an odd number of others, inwards.
  const std::vector<std::uint32_t> shellOf = orientShells(m, topo, name, flipped, report.shells);
  std::vector<double> shellVolume(report.shells, 0.0);
  const Vec3 o = 0.5 * (lower + upper);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const Vec3 a = m.corner(t, 0) - o, b = m.corner(t, 1) - o, c = m.corner(t, 2) - o;
    shellVolume[shellOf[t]] += a.dot(b.cross(c)) / 6.0;
  }
  std::vector<bool> invert(report.shells, false);
  if (report.shells == 1) {
    invert[0] = shellVolume[0] < 0.0;
  } else {
    auto shared = std::make_shared<const TriangleMesh>(m);
    const TriangleBvh bvh(shared);
    std::vector<std::uint32_t> firstTriangle(report.shells, kNone);
    for (std::uint32_t t = 0; t < m.triangles.size(); ++t) {
      if (firstTriangle[shellOf[t]] == kNone) firstTriangle[shellOf[t]] = t;
    }
    std::unordered_map<std::uint32_t, int> crossings;
    for (std::uint32_t s = 0; s < report.shells; ++s) {
      const std::uint32_t t = firstTriangle[s];
      const Vec3 p = (m.corner(t, 0) + m.corner(t, 1) + m.corner(t, 2)) / 3.0;
      crossings.clear();
      bvh.forEachCrossingBeyond(p, [&](std::uint32_t u, int) {
        if (shellOf[u] != s) ++crossings[shellOf[u]];
      });
      int depth = 0;
      for (const auto& [other, count] : crossings) depth += count % 2;
      const bool wantPositive = depth % 2 == 0;
      invert[s] = shellVolume[s] != 0.0 && (shellVolume[s] > 0.0) != wantPositive;
    }
  }
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    if (invert[shellOf[t]]) {
      std::swap(m.triangles[t][1], m.triangles[t][2]);
      flipped[t] = !flipped[t];
    }
  }
  // A shell most of whose triangles were turned over was inside out; the rest were single triangles
  // facing the wrong way.
  std::vector<std::size_t> shellSize(report.shells, 0), shellFlipped(report.shells, 0);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    ++shellSize[shellOf[t]];
    shellFlipped[shellOf[t]] += flipped[t];
  }
  for (std::size_t s = 0; s < report.shells; ++s) {
    const std::size_t kept = shellSize[s] - shellFlipped[s];
    report.shellsInverted += shellFlipped[s] > kept;
    report.trianglesReoriented += std::min(kept, shellFlipped[s]);
  }

  report.triangles = m.triangles.size();
  report.vertices = m.vertices.size();
  report.lower = lower;
  report.upper = upper;
  // The enclosed volume: each shell's signed volume, with the sign it has once turned.
  for (std::size_t s = 0; s < report.shells; ++s)
    report.volume += invert[s] ? -shellVolume[s] : shellVolume[s];
  report.area = surfaceArea(m);
  if (!(report.volume > 0.0)) throw InputError(name, "", "the surface encloses no volume");
  auto& w = report.warnings;
  if (report.verticesMergedNearby) {
    w.push_back("welded " + std::to_string(report.verticesMergedNearby) +
                " vertices that were within round-off of another (seams)");
  }
  if (report.degenerateDropped)
    w.push_back("dropped " + std::to_string(report.degenerateDropped) + " degenerate (zero-area) triangles");
  if (report.duplicatesDropped)
    w.push_back("dropped " + std::to_string(report.duplicatesDropped) + " duplicate triangles");
  if (report.trianglesReoriented) {
    w.push_back(std::to_string(report.trianglesReoriented) +
                " triangles faced the wrong way and were turned to agree with their neighbours");
  }
  if (report.shellsInverted) {
    w.push_back(std::to_string(report.shellsInverted) +
                (report.shellsInverted == 1 ? " shell was" : " shells were") +
                " inside out (negative volume) and " + (report.shellsInverted == 1 ? "was" : "were") +
                " turned over");
  }
  if (!report.holesClosed.empty()) {
    std::size_t edges = 0;
    for (const MeshHole& h : report.holesClosed) edges += h.edges;
    w.push_back("closed " + std::to_string(report.holesClosed.size()) + " holes (" + std::to_string(edges) +
                " boundary edges)");
  }
  if (report.shells > 1) {
    w.push_back("the mesh has " + std::to_string(report.shells) +
                " separate shells, weighed and filled as one body");
  }
  return {std::make_shared<const TriangleMesh>(std::move(m)), std::move(report)};
}

}  // namespace clumplab::shapes
