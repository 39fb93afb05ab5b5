#include "MeshWarnings.hpp"

#include <algorithm>
#include <cstdio>

namespace clumplab::shapes::detail {

namespace {

std::string count(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The largest relative error estimate of the volume and the inertia tensor, in percent.
std::string percent(const MassProperties& m) {
  const double tensor = m.inertiaTensor.norm();
  const double relative = std::max(m.volume > 0.0 ? m.volumeError / m.volume : 0.0,
                                   tensor > 0.0 ? m.inertiaTensorError.norm() / tensor : 0.0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g%%", 100.0 * relative);
  return buf;
}

// What welding and cleaning did, and what stayed open or non-manifold.
void addTopologyWarnings(const MeshReport& report, const HoleSurvey& holes, const Vec3& nonManifoldAt,
                         std::vector<std::string>& w) {
  if (report.verticesMergedNearby) {
    std::string seams = "welded " + std::to_string(report.verticesMergedNearby) +
                        " vertices that were within round-off of another (seams)";
    if (holes.holes.empty() && report.boundaryEdgesAsGiven > 0) {
      seams += ", which closed all " + std::to_string(report.boundaryEdgesAsGiven) +
               " boundary edges the mesh has as given";
    }
    w.push_back(seams);
  }
  if (report.degenerateDropped)
    w.push_back("dropped " + std::to_string(report.degenerateDropped) + " degenerate (zero-area) triangles");
  if (report.duplicatesDropped)
    w.push_back("dropped " + std::to_string(report.duplicatesDropped) + " duplicate triangles");
  if (!holes.holes.empty()) {
    std::string open = "the mesh is open: " + holes.summary;
    std::size_t edges = 0;
    for (const MeshHole& h : holes.holes) edges += h.edges;
    if (report.boundaryEdgesAsGiven != edges) {
      open += " (" + std::to_string(report.boundaryEdgesAsGiven) +
              " boundary edges as given, before its seams were welded)";
    }
    w.push_back(open);
  }
  if (report.nonManifoldEdges) {
    std::string shared = count(report.nonManifoldEdges, "edge is", "edges are") +
                         " shared by more than two triangles (non-manifold), the first near " +
                         where(nonManifoldAt);
    if (report.nonManifoldEdgesAsGiven == 0) {
      shared += "; the mesh as given has none: welding its seams joined them";
    } else if (report.nonManifoldEdgesAsGiven != report.nonManifoldEdges) {
      shared += " (" + std::to_string(report.nonManifoldEdgesAsGiven) + " as given)";
    }
    w.push_back(shared);
  }
}

// Triangles and shells turned over.
void addOrientationWarnings(const MeshReport& report, std::vector<std::string>& w) {
  if (report.trianglesReoriented) {
    w.push_back(std::to_string(report.trianglesReoriented) +
                " triangles faced the wrong way and were turned to agree with their neighbours");
  }
  if (report.shellsInverted && report.closed) {
    w.push_back(std::to_string(report.shellsInverted) +
                (report.shellsInverted == 1 ? " shell was" : " shells were") +
                " inside out (negative volume) and " + (report.shellsInverted == 1 ? "was" : "were") +
                " turned over");
  } else if (report.shellsInverted) {
    w.push_back(count(report.shellsInverted, "piece of surface was", "pieces of surface were") +
                " turned over so that the winding number is positive inside (a negative signed volume about "
                "their centre, or a disagreement with their neighbours at non-manifold edges)");
  }
}

// Holes closed, and what the repair left open.
void addRepairWarnings(const MeshReport& report, const HoleSurvey& holes, bool repair, double repairLimit,
                       std::vector<std::string>& w) {
  if (!report.holesClosed.empty()) {
    std::size_t edges = 0;
    for (const MeshHole& h : report.holesClosed) edges += h.edges;
    w.push_back("closed " + std::to_string(report.holesClosed.size()) + " holes (" + std::to_string(edges) +
                " boundary edges)");
  }
  if (repair && report.holesClosed.size() < holes.holes.size()) {
    std::size_t large = 0, chains = 0;
    for (std::size_t h = 0; h < holes.holes.size(); ++h) {
      large += holes.loops[h].closed && holes.holes[h].perimeter > repairLimit;
      chains += !holes.loops[h].closed;
    }
    std::string left = "the repair left open ";
    if (large > 0) {
      left += count(large, "hole", "holes") + " with a perimeter above the bounding-box diagonal (" +
              number(repairLimit) + " m)";
    }
    if (chains > 0) {
      left += std::string(large > 0 ? " and " : "") + count(chains, "boundary", "boundaries") +
              " that do not close into a loop (they end at a non-manifold edge)";
    }
    w.push_back(left);
  }
}

// What the solid is: several shells, their union, the winding number's solid, sampled mass properties.
void addSolidWarnings(const MeshReport& report, const std::optional<MassProperties>& sampled,
                      std::vector<std::string>& w) {
  if (report.shells > 1) {
    w.push_back("the mesh has " + std::to_string(report.shells) +
                " separate shells, weighed and filled as one body");
  }
  if (report.overlappingShells) {
    w.push_back(
        "its closed shells overlap (the winding number reaches 2 or -1 beside a face), so the solid is "
        "their union: where the winding number is at least 1/2");
  } else if (!report.closed) {
    w.push_back(
        "the mesh is not a closed manifold, so the solid is where its generalized winding number is "
        "at least 1/2: holes are bridged, non-manifold edges and overlaps tolerated");
  }
  if (sampled) {
    w.push_back("mass properties from the solid its generalized winding number encloses, sampled on a " +
                std::to_string(sampled->voxelsPerSide) + "^3 grid: ±" + percent(*sampled) + " estimated");
  }
}

}  // namespace

std::vector<std::string> meshWarnings(const MeshReport& report, const HoleSurvey& holes,
                                      const Vec3& nonManifoldAt, bool repair, double repairLimit,
                                      const std::optional<MassProperties>& sampled) {
  std::vector<std::string> w;
  addTopologyWarnings(report, holes, nonManifoldAt, w);
  addOrientationWarnings(report, w);
  addRepairWarnings(report, holes, repair, repairLimit, w);
  addSolidWarnings(report, sampled, w);
  return w;
}

}  // namespace clumplab::shapes::detail
