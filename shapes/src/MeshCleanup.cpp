// prepareMesh: welding, degenerate and duplicate triangles, the edge checks, holes, orientation of
// every shell, the solid the mesh bounds (exactly for a closed 2-manifold, as the generalized winding
// number's otherwise) and the report. The topology itself is in MeshTopology.cpp, the holes in
// MeshHoles.cpp, the shells' orientation in ShellOrientation.cpp, the warnings in MeshWarnings.cpp.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "MeshTopology.hpp"
#include "MeshWarnings.hpp"
#include "ShellOrientation.hpp"
#include "core/base/Errors.hpp"
#include "core/base/ResourceLimits.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshMassProperties.hpp"

namespace clumplab::shapes {

using namespace detail;

namespace {

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

// Scales and checks the vertices, welds those at exactly equal positions, drops degenerate and
// duplicate triangles (counted in the report).
TriangleMesh weldedExactly(const TriangleMesh& soup, const std::string& name, const MeshOptions& options,
                           MeshReport& report) {
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
  return m;
}

// Whether every corner lies within 1e-9 of the diagonal of the plane of the largest triangle.
bool planar(const TriangleMesh& m, double diagonal) {
  std::size_t largest = 0;
  double largestArea = 0.0;
  for (std::size_t t = 0; t < m.size(); ++t) {
    const double a = (m.corner(t, 1) - m.corner(t, 0)).cross(m.corner(t, 2) - m.corner(t, 0)).norm();
    if (a > largestArea) {
      largestArea = a;
      largest = t;
    }
  }
  const Vec3 normal = (m.corner(largest, 1) - m.corner(largest, 0))
                          .cross(m.corner(largest, 2) - m.corner(largest, 0))
                          .normalized();
  for (const auto& t : m.triangles) {
    for (const std::uint32_t v : t) {
      if (std::abs((m.vertices[v] - m.corner(largest, 0)).dot(normal)) > 1e-9 * diagonal) return false;
    }
  }
  return true;
}

// The mesh with the shells `invert` names turned over.
TriangleMesh turned(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                    const std::vector<bool>& invert) {
  TriangleMesh out = m;
  for (std::size_t t = 0; t < out.triangles.size(); ++t) {
    if (invert[shellOf[t]]) std::swap(out.triangles[t][1], out.triangles[t][2]);
  }
  return out;
}

// The volume of the solid the oriented mesh bounds: a closed mesh's shells' signed volumes as turned
// (exact), any other surface's solid sampled (its mass properties kept in `prepared`); a surface
// that bounds no solid is refused.
void weighSolid(PreparedMesh& prepared, MeshReport& report, const std::vector<double>& shellVolume,
                const std::vector<bool>& invert, double diagonal, const WorkProgress& progress) {
  const std::string& name = report.file;
  if (report.closed) {
    for (std::size_t s = 0; s < report.shells; ++s)
      report.volume += invert[s] ? -shellVolume[s] : shellVolume[s];
    if (!(report.volume > 0.0)) throw InputError(name, "", "the surface encloses no volume");
    return;
  }
  const std::string noSolid = "bounds no solid: its generalized winding number never reaches 1/2";
  if (planar(*prepared.mesh, diagonal)) {
    throw InputError(name, "",
                     noSolid +
                         (report.triangles == 1
                              ? std::string(" (it is a single triangle")
                              : " (its " + std::to_string(report.triangles) + " triangles lie in one plane") +
                         ": a flat sheet encloses nothing)");
  }
  try {
    prepared.sampledUnitMass =
        solidMassProperties(*prepared.solid, 1.0, kWindingBudget, kWindingVoxels, progress.silent());
  } catch (const std::invalid_argument&) {
    throw InputError(name, "",
                     noSolid + " anywhere on a " + std::to_string(kWindingVoxels) +
                         "^3 grid over its bounding box (an open surface such as a sheet encloses nothing)");
  }
  report.volume = prepared.sampledUnitMass->volume;
  report.volumeError = prepared.sampledUnitMass->volumeError;
  report.voxels = prepared.sampledUnitMass->voxelsPerSide;
}

// The triangle soup as read: some triangles, within the limit, and a usable scale.
void checkSoup(const TriangleMesh& soup, const std::string& name, const MeshOptions& options) {
  if (soup.triangles.empty()) throw InputError(name, "", "contains no triangles");
  if (soup.triangles.size() > options.maxTriangles) {
    throw LimitError(name, "",
                     std::to_string(soup.triangles.size()) + " triangles exceed the limit of " +
                         std::to_string(options.maxTriangles),
                     "triangles", soup.triangles.size());
  }
  if (!(options.scale > 0.0) || !std::isfinite(options.scale))
    throw InputError(name, "", "the scale must be positive");
}

// Seams, whose copies of a vertex differ by round-off (a float STL's 1e-7, an exporter's 1e-16):
// always welded within 1e-6 of the diagonal, with a warning. What stays open is a hole.
void weldSeams(TriangleMesh& m, Topology& topo, double diagonal, const std::string& name,
               MeshReport& report) {
  report.verticesMergedNearby =
      weldNearby(m, 1e-6 * diagonal, report.degenerateDropped, report.duplicatesDropped);
  if (report.verticesMergedNearby > 0) topo = analyse(m);
  if (m.triangles.empty()) {
    throw InputError(name, "",
                     "no triangle is left once vertices closer than 1e-6 of the diagonal are welded");
  }
}

// A shell most of whose triangles were turned over was inside out; the rest were single triangles
// facing the wrong way.
void countReorientations(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                         const std::vector<bool>& flipped, const std::vector<bool>& invert,
                         MeshReport& report) {
  std::vector<std::size_t> shellSize(report.shells, 0), shellFlipped(report.shells, 0);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    ++shellSize[shellOf[t]];
    shellFlipped[shellOf[t]] += flipped[t] != invert[shellOf[t]];
  }
  for (std::size_t s = 0; s < report.shells; ++s) {
    const std::size_t kept = shellSize[s] - shellFlipped[s];
    report.shellsInverted += shellFlipped[s] > kept;
    report.trianglesReoriented += std::min(kept, shellFlipped[s]);
  }
}

}  // namespace

PreparedMesh prepareMesh(const TriangleMesh& soup, const std::string& name, const MeshOptions& options,
                         const WorkProgress& progress) {
  MeshReport report;
  report.file = name;
  report.trianglesRead = soup.triangles.size();
  checkSoup(soup, name, options);
  TriangleMesh m = weldedExactly(soup, name, options, report);
  Vec3 lower, upper;
  meshBounds(m, lower, upper);
  const double diagonal = (upper - lower).norm();

  // Edges: a closed 2-manifold has exactly two triangles on each. Seams are welded; holes are closed
  // on request when small; what stays open or non-manifold bounds the winding number's solid.
  Topology topo = analyse(m);
  report.boundaryEdgesAsGiven = topo.boundary.size();
  report.nonManifoldEdgesAsGiven = topo.nonManifoldEdges;
  if (!topo.boundary.empty()) weldSeams(m, topo, diagonal, name, report);
  const Vec3 nonManifoldAt = topo.nonManifoldAt;
  std::vector<bool> flipped(m.triangles.size(), false);
  if (!topo.boundary.empty()) {
    // Each piece oriented first, so that the boundary edges run the same way round each hole: a hole
    // beside a triangle that faced the wrong way is then one loop, not two chains.
    orientShells(m, topo, name, flipped, report.shells);
    topo = analyse(m);
  }
  const HoleSurvey holes = surveyHoles(m, topo);
  if (options.repair && !holes.holes.empty()) {
    // Holes whose perimeter is at most the bounding-box diagonal, closed with fans.
    report.holesClosed = closeHoles(m, holes, diagonal);
    flipped.resize(m.triangles.size(), false);
    if (!report.holesClosed.empty()) topo = analyse(m);
  }
  report.boundaryEdges = topo.boundary.size();
  report.nonManifoldEdges = topo.nonManifoldEdges;
  const bool manifold = topo.boundary.empty() && topo.nonManifoldEdges == 0;

  // One orientation per shell, then each shell outwards or, as a cavity, inwards.
  const std::vector<std::uint32_t> shellOf = orientShells(m, topo, name, flipped, report.shells);
  const std::vector<double> shellVolume = shellVolumes(m, shellOf, report.shells, 0.5 * (lower + upper));
  std::vector<bool> invert = manifold ? closedShellInversions(m, shellOf, shellVolume)
                                      : openShellInversions(m, shellOf, report.shells);
  auto oriented = std::make_shared<const TriangleMesh>(turned(m, shellOf, invert));
  auto solid = manifold ? std::make_shared<const MeshSolid>(oriented)
                        : std::make_shared<const MeshSolid>(oriented, MeshSolid::InsideRule::WindingNumber);
  if (manifold && solid->insideRule() == MeshSolid::InsideRule::WindingNumber) {
    // Closed shells that overlap (the winding number reaches 2 or -1): every shell outwards, so that
    // {w >= 1/2} is their union.
    report.overlappingShells = true;
    for (std::size_t s = 0; s < report.shells; ++s) invert[s] = shellVolume[s] < 0.0;
    oriented = std::make_shared<const TriangleMesh>(turned(m, shellOf, invert));
    solid = std::make_shared<const MeshSolid>(oriented, MeshSolid::InsideRule::WindingNumber);
  }
  report.closed = solid->insideRule() == MeshSolid::InsideRule::Crossings;
  countReorientations(m, shellOf, flipped, invert, report);

  report.triangles = oriented->triangles.size();
  report.vertices = oriented->vertices.size();
  report.lower = lower;
  report.upper = upper;
  report.area = surfaceArea(*oriented);
  PreparedMesh prepared{oriented, {}, solid, std::nullopt};
  progress.throwIfCancelled();
  weighSolid(prepared, report, shellVolume, invert, diagonal, progress);
  report.warnings =
      meshWarnings(report, holes, nonManifoldAt, options.repair, diagonal, prepared.sampledUnitMass);
  prepared.report = std::move(report);
  return prepared;
}

MassProperties preparedMassProperties(const PreparedMesh& prepared, double density) {
  if (!prepared.sampledUnitMass) return meshMassProperties(*prepared.mesh, density);
  MassProperties m = *prepared.sampledUnitMass;
  m.mass *= density;
  m.inertiaTensor *= density;
  m.inertiaTensorError *= density;
  return m;
}

}  // namespace clumplab::shapes
