#include "shapes/ImplicitMesher.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace clumplab::shapes {

namespace {
constexpr std::int64_t kMaxCells = std::int64_t{1} << 26;
constexpr double kNudge = 1e-3;            // grid values are kept at least this x cellSize from 0
constexpr double kMinEdgeFraction = 1e-3;  // vertices keep this fraction of their edge from its ends
constexpr int kRootSteps = 8;              // false-position steps per edge at most

// Corner c of a cube (bit 0: +x, bit 1: +y, bit 2: +z) as an integer offset.
std::array<int, 3> cornerOffset(int c) {
  return {c & 1, (c >> 1) & 1, (c >> 2) & 1};
}

// The 6 Kuhn tetrahedra of the unit cube: corners 0, e_p0, e_p0 + e_p1, 7 for each permutation p.
// Each shares the main diagonal 0-7; every face diagonal runs from the face's lowest corner to its
// highest, so the split agrees across shared faces.
std::array<std::array<int, 4>, 6> kuhnTetrahedra() {
  constexpr std::array<std::array<int, 3>, 6> permutations = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  std::array<std::array<int, 4>, 6> tets{};
  for (std::size_t k = 0; k < 6; ++k) {
    const auto& p = permutations[k];
    tets[k] = {0, 1 << p[0], (1 << p[0]) | (1 << p[1]), 7};
  }
  return tets;
}

// det(b - a, c - a, d - a) of integer points: the sign of the tetrahedron's orientation.
int orientation(const std::array<int, 3>& a, const std::array<int, 3>& b, const std::array<int, 3>& c,
                const std::array<int, 3>& d) {
  const int u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const int v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const int w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

class Mesher {
 public:
  Mesher(const SignedDistance& f, const Vec3& lower, double h, const std::array<std::int64_t, 3>& cells)
      : f_(f), lower_(lower), h_(h), cells_(cells), tets_(kuhnTetrahedra()) {
    for (int c = 0; c < 8; ++c) offsets_[static_cast<std::size_t>(c)] = cornerOffset(c);
  }

  TriangleMesh run() {
    const std::int64_t nx = cells_[0], ny = cells_[1], nz = cells_[2];
    std::vector<double> below, above;
    sampleLayer(0, below);
    for (std::int64_t k = 0; k < nz; ++k) {
      sampleLayer(k + 1, above);
      for (std::int64_t j = 0; j < ny; ++j) {
        for (std::int64_t i = 0; i < nx; ++i) cube(i, j, k, below, above);
      }
      below.swap(above);
    }
    return std::move(mesh_);
  }

 private:
  std::int64_t pointsX() const { return cells_[0] + 1; }
  std::int64_t pointsY() const { return cells_[1] + 1; }

  Vec3 point(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return lower_ + h_ * Vec3(static_cast<double>(i), static_cast<double>(j), static_cast<double>(k));
  }

  // Samples grid layer k: checks the boundary, pushes near-zero values away from 0.
  void sampleLayer(std::int64_t k, std::vector<double>& layer) const {
    layer.resize(static_cast<std::size_t>(pointsX() * pointsY()));
    const double tiny = kNudge * h_;
    for (std::int64_t j = 0; j < pointsY(); ++j) {
      for (std::int64_t i = 0; i < pointsX(); ++i) {
        const Vec3 p = point(i, j, k);
        double v = f_(p);
        if (!std::isfinite(v)) throw std::invalid_argument("the signed distance is not finite at " + text(p));
        const bool boundary =
            k == 0 || k == cells_[2] || i == 0 || i == cells_[0] || j == 0 || j == cells_[1];
        if (boundary && v <= 0.0) {
          throw std::invalid_argument(
              "the meshing box does not enclose the solid with a margin: the signed "
              "distance is " +
              std::to_string(v) + " m at the grid boundary point " + text(p));
        }
        if (std::abs(v) < tiny) v = v < 0.0 ? -tiny : tiny;
        layer[static_cast<std::size_t>(i + pointsX() * j)] = v;
      }
    }
  }

  static std::string text(const Vec3& p) {
    return "(" + std::to_string(p.x()) + ", " + std::to_string(p.y()) + ", " + std::to_string(p.z()) + ") m";
  }

  void cube(std::int64_t i, std::int64_t j, std::int64_t k, const std::vector<double>& below,
            const std::vector<double>& above) {
    std::array<double, 8> value{};
    std::array<std::uint64_t, 8> id{};
    int inside = 0;
    for (std::size_t c = 0; c < 8; ++c) {
      const auto& o = offsets_[c];
      const std::vector<double>& layer = o[2] != 0 ? above : below;
      const std::int64_t ii = i + o[0], jj = j + o[1], kk = k + o[2];
      value[c] = layer[static_cast<std::size_t>(ii + pointsX() * jj)];
      id[c] = static_cast<std::uint64_t>(ii + pointsX() * (jj + pointsY() * kk));
      if (value[c] < 0.0) ++inside;
    }
    if (inside == 0 || inside == 8) return;
    const Vec3 origin = point(i, j, k);
    for (const auto& tet : tets_) {
      Corner q[4];
      for (std::size_t n = 0; n < 4; ++n) {
        const auto c = static_cast<std::size_t>(tet[n]);
        q[n] = Corner{offsets_[c], origin + h_ * Vec3(offsets_[c][0], offsets_[c][1], offsets_[c][2]),
                      value[c], id[c]};
      }
      tetrahedron(q);
    }
  }

  struct Corner {
    std::array<int, 3> offset;  // in the cube, for exact orientation tests
    Vec3 position;              // [m]
    double value;               // [m], never 0
    std::uint64_t id;           // grid point index
  };

  // Emits the surface's piece in one tetrahedron, each triangle facing from the inside corners
  // towards the outside ones (see the orientation argument at each case).
  void tetrahedron(const Corner (&q)[4]) {
    const Corner* in[4];
    const Corner* out[4];
    int nIn = 0, nOut = 0;
    for (const Corner& c : q) (c.value < 0.0 ? in[nIn++] : out[nOut++]) = &c;
    if (nIn == 0 || nOut == 0) return;
    if (nIn == 1 || nOut == 1) {
      // One corner s alone on its side; the triangle cuts the edges s-a, s-b, s-c. Its orientation
      // relative to s is that of det(a - s, b - s, c - s) (scaled by the positive edge fractions):
      // positive means it faces away from s.
      const bool sInside = nIn == 1;
      const Corner& s = sInside ? *in[0] : *out[0];
      const Corner* const* others = sInside ? out : in;
      const Corner *a = others[0], *b = others[1], *c = others[2];
      const bool facesAwayFromS = orientation(s.offset, a->offset, b->offset, c->offset) > 0;
      if (facesAwayFromS != sInside) std::swap(b, c);  // face away from an inside s, towards an outside one
      emit(edgeVertex(s, *a), edgeVertex(s, *b), edgeVertex(s, *c));
      return;
    }
    // Two inside (a0, a1), two outside (b0, b1): the quad p(a0,b0) p(a0,b1) p(a1,b1) p(a1,b0).
    // Relative to a0 the first triangle's orientation is that of det(a1 - a0, b0 - a0, b1 - a0), and
    // relative to a1 the second's is too (two transpositions); positive means facing away from them.
    const Corner *a0 = in[0], *a1 = in[1], *b0 = out[0], *b1 = out[1];
    if (orientation(a0->offset, a1->offset, b0->offset, b1->offset) < 0) std::swap(b0, b1);
    const std::uint32_t p00 = edgeVertex(*a0, *b0), p01 = edgeVertex(*a0, *b1);
    const std::uint32_t p11 = edgeVertex(*a1, *b1), p10 = edgeVertex(*a1, *b0);
    emit(p00, p01, p11);
    emit(p00, p11, p10);
  }

  void emit(std::uint32_t a, std::uint32_t b, std::uint32_t c) { mesh_.triangles.push_back({a, b, c}); }

  // The vertex where the surface crosses the grid edge u-v (values of opposite signs), made once.
  std::uint32_t edgeVertex(const Corner& u, const Corner& v) {
    const std::uint64_t lo = std::min(u.id, v.id), hi = std::max(u.id, v.id);
    const std::uint64_t key = (lo << 32) | hi;
    const auto [it, added] = vertexOfEdge_.try_emplace(key, 0u);
    if (!added) return it->second;
    // Oriented from the lower id, so the same edge always gives bit-identical positions.
    const Corner& a = u.id < v.id ? u : v;
    const Corner& b = u.id < v.id ? v : u;
    it->second = static_cast<std::uint32_t>(mesh_.vertices.size());
    mesh_.vertices.push_back(a.position + crossing(a, b) * (b.position - a.position));
    return it->second;
  }

  // The fraction t of the edge a-b where the function crosses 0: Illinois false position from the
  // (nudged) end values, stopped when |f| < 1e-9 cellSize.
  double crossing(const Corner& a, const Corner& b) const {
    double t0 = 0.0, f0 = a.value, t1 = 1.0, f1 = b.value;
    int lastSide = 0;
    double t = 0.5;
    for (int step = 0; step < kRootSteps; ++step) {
      t = (t0 * f1 - t1 * f0) / (f1 - f0);
      const double ft = f_(a.position + t * (b.position - a.position));
      if (!std::isfinite(ft)) throw std::invalid_argument("the signed distance is not finite on a grid edge");
      if (std::abs(ft) < 1e-9 * h_) break;
      if ((ft < 0.0) == (f0 < 0.0)) {
        t0 = t;
        f0 = ft;
        if (lastSide == -1) f1 *= 0.5;  // Illinois: halve the stale end's value
        lastSide = -1;
      } else {
        t1 = t;
        f1 = ft;
        if (lastSide == 1) f0 *= 0.5;
        lastSide = 1;
      }
    }
    return std::clamp(t, kMinEdgeFraction, 1.0 - kMinEdgeFraction);
  }

  const SignedDistance& f_;
  Vec3 lower_;
  double h_;
  std::array<std::int64_t, 3> cells_;
  std::array<std::array<int, 4>, 6> tets_;
  std::array<std::array<int, 3>, 8> offsets_{};
  std::unordered_map<std::uint64_t, std::uint32_t> vertexOfEdge_;
  TriangleMesh mesh_;
};
}  // namespace

TriangleMesh meshImplicit(const SignedDistance& signedDistance, const Vec3& lower, const Vec3& upper,
                          double cellSize) {
  if (!signedDistance) throw std::invalid_argument("meshImplicit needs a signed-distance function");
  if (!(std::isfinite(cellSize) && cellSize > 0.0))
    throw std::invalid_argument("the cell size must be positive");
  if (!lower.allFinite() || !upper.allFinite() || !(upper.array() > lower.array()).all()) {
    throw std::invalid_argument("the meshing box needs finite corners with upper > lower on every axis");
  }
  std::array<std::int64_t, 3> cells{};
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double n = std::ceil((upper[a] - lower[a]) / cellSize);
    total *= n;
    if (!(total <= static_cast<double>(kMaxCells))) {
      throw std::invalid_argument("the meshing grid would exceed 2^26 cells: use a larger cell size");
    }
    cells[static_cast<std::size_t>(a)] = std::max<std::int64_t>(1, static_cast<std::int64_t>(n));
  }
  return Mesher(signedDistance, lower, cellSize, cells).run();
}

}  // namespace clumplab::shapes
