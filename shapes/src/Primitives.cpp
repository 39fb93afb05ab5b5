#include "shapes/Primitives.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace clumplab::shapes {

namespace {
using Tri = std::array<std::uint32_t, 3>;

std::uint32_t addVertex(TriangleMesh& m, const Vec3& v) {
  m.vertices.push_back(v);
  return static_cast<std::uint32_t>(m.vertices.size() - 1);
}

// A surface of revolution about the segment a-b: `profile` holds (axial position along a-b in
// [0, |b - a|], radius) from the a end to the b end; the ends with radius 0 become poles.
TriangleMesh revolve(const Vec3& a, const Vec3& b, const std::vector<Eigen::Vector2d>& profile,
                     int segments) {
  if (segments < 3) throw std::invalid_argument("a surface of revolution needs at least 3 segments");
  const Vec3 axis = (b - a).normalized();
  Vec3 u, v;
  perpendicularPair(axis, u, v);
  TriangleMesh m;
  std::vector<std::vector<std::uint32_t>> rings;
  for (const Eigen::Vector2d& p : profile) {
    std::vector<std::uint32_t> ring;
    if (p.y() == 0.0) {
      ring.push_back(addVertex(m, a + p.x() * axis));
    } else {
      for (int s = 0; s < segments; ++s) {
        const double phi = 2.0 * std::numbers::pi * s / segments;
        ring.push_back(addVertex(m, a + p.x() * axis + p.y() * (std::cos(phi) * u + std::sin(phi) * v)));
      }
    }
    rings.push_back(std::move(ring));
  }
  // Walking from a to b, (u, v, axis) is right-handed, so (ring k, ring k, ring k+1) as below faces out.
  for (std::size_t k = 0; k + 1 < rings.size(); ++k) {
    const auto& r0 = rings[k];
    const auto& r1 = rings[k + 1];
    for (int s = 0; s < segments; ++s) {
      const int t = (s + 1) % segments;
      if (r0.size() == 1) {
        m.triangles.push_back({r0[0], r1[t], r1[s]});
      } else if (r1.size() == 1) {
        m.triangles.push_back({r0[s], r0[t], r1[0]});
      } else {
        m.triangles.push_back({r0[s], r0[t], r1[t]});
        m.triangles.push_back({r0[s], r1[t], r1[s]});
      }
    }
  }
  return m;
}
}  // namespace

TriangleMesh boxMesh(const Vec3& lower, const Vec3& upper) {
  TriangleMesh m;
  for (int k = 0; k < 8; ++k) {
    m.vertices.emplace_back(k & 1 ? upper.x() : lower.x(), k & 2 ? upper.y() : lower.y(),
                            k & 4 ? upper.z() : lower.z());
  }
  // Two triangles a face, counter-clockwise seen from outside.
  m.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                 {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return m;
}

TriangleMesh tetrahedronMesh(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  TriangleMesh m;
  m.vertices = {a, b, c, d};
  if ((b - a).dot((c - a).cross(d - a)) < 0.0) std::swap(m.vertices[1], m.vertices[2]);
  // With det(b - a, c - a, d - a) > 0 these four face outwards.
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  return m;
}

TriangleMesh uvSphereMesh(const Vec3& center, double radius, int slices, int stacks) {
  if (stacks < 2) throw std::invalid_argument("a UV sphere needs at least 2 stacks");
  std::vector<Eigen::Vector2d> profile;
  for (int k = 0; k <= stacks; ++k) {
    const double theta = std::numbers::pi * k / stacks;  // from the south pole
    profile.emplace_back(radius * (1.0 - std::cos(theta)),
                         k == 0 || k == stacks ? 0.0 : radius * std::sin(theta));
  }
  return revolve(center - radius * Vec3::UnitZ(), center + radius * Vec3::UnitZ(), profile, slices);
}

TriangleMesh torusMesh(const Vec3& center, double ringRadius, double tubeRadius, int ringSegments,
                       int tubeSegments) {
  if (!(tubeRadius > 0.0 && tubeRadius < ringRadius)) throw std::invalid_argument("a torus needs 0 < r < R");
  if (ringSegments < 3 || tubeSegments < 3) throw std::invalid_argument("a torus needs at least 3 segments");
  TriangleMesh m;
  for (int i = 0; i < ringSegments; ++i) {
    const double phi = 2.0 * std::numbers::pi * i / ringSegments;
    for (int j = 0; j < tubeSegments; ++j) {
      const double theta = 2.0 * std::numbers::pi * j / tubeSegments;
      const double rho = ringRadius + tubeRadius * std::cos(theta);
      m.vertices.push_back(center +
                           Vec3(rho * std::cos(phi), rho * std::sin(phi), tubeRadius * std::sin(theta)));
    }
  }
  const auto id = [&](int i, int j) {
    return static_cast<std::uint32_t>((i % ringSegments) * tubeSegments + (j % tubeSegments));
  };
  for (int i = 0; i < ringSegments; ++i) {
    for (int j = 0; j < tubeSegments; ++j) {
      m.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      m.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  }
  return m;
}

namespace {
double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// Ear clipping of a simple counter-clockwise polygon: triangles as index triples.
std::vector<Tri> triangulatePolygon(const std::vector<Eigen::Vector2d>& p) {
  std::vector<std::uint32_t> left(p.size());
  for (std::uint32_t i = 0; i < p.size(); ++i) left[i] = i;
  std::vector<Tri> out;
  while (left.size() > 3) {
    bool clipped = false;
    for (std::size_t i = 0; i < left.size() && !clipped; ++i) {
      const std::uint32_t a = left[(i + left.size() - 1) % left.size()], b = left[i],
                          c = left[(i + 1) % left.size()];
      if (cross2(p[b] - p[a], p[c] - p[b]) <= 0.0) continue;  // reflex corner: not an ear
      bool empty = true;
      for (const std::uint32_t q : left) {
        if (q == a || q == b || q == c) continue;
        if (cross2(p[b] - p[a], p[q] - p[a]) >= 0.0 && cross2(p[c] - p[b], p[q] - p[b]) >= 0.0 &&
            cross2(p[a] - p[c], p[q] - p[c]) >= 0.0) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      out.push_back({a, b, c});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    if (!clipped) throw std::invalid_argument("the prism outline is not a simple counter-clockwise polygon");
  }
  out.push_back({left[0], left[1], left[2]});
  return out;
}
}  // namespace

TriangleMesh prismMesh(const std::vector<Eigen::Vector2d>& outline, double zMin, double zMax) {
  const std::size_t n = outline.size();
  if (n < 3 || !(zMax > zMin)) throw std::invalid_argument("a prism needs 3 corners and zMax > zMin");
  double twiceArea = 0.0;
  for (std::size_t i = 0; i < n; ++i) twiceArea += cross2(outline[i], outline[(i + 1) % n]);
  if (!(twiceArea > 0.0)) throw std::invalid_argument("the prism outline must be counter-clockwise");
  TriangleMesh m;
  for (const auto& p : outline) m.vertices.emplace_back(p.x(), p.y(), zMin);
  for (const auto& p : outline) m.vertices.emplace_back(p.x(), p.y(), zMax);
  const auto top = static_cast<std::uint32_t>(n);
  for (const Tri& t : triangulatePolygon(outline)) {
    m.triangles.push_back({t[0], t[2], t[1]});                    // bottom faces -z
    m.triangles.push_back({t[0] + top, t[1] + top, t[2] + top});  // top faces +z
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t j = (i + 1) % static_cast<std::uint32_t>(n);
    m.triangles.push_back({i, j, j + top});
    m.triangles.push_back({i, j + top, i + top});
  }
  return m;
}

TriangleMesh cylinderMesh(const Vec3& a, const Vec3& b, double radius, int segments) {
  const double length = (b - a).norm();
  if (!(length > 0.0 && radius > 0.0)) throw std::invalid_argument("a cylinder needs a length and a radius");
  return revolve(a, b, {{0.0, 0.0}, {0.0, radius}, {length, radius}, {length, 0.0}}, segments);
}

TriangleMesh capsuleMesh(const Vec3& a, const Vec3& b, double radius, int segments) {
  const double length = (b - a).norm();
  if (!(length > 0.0 && radius > 0.0)) throw std::invalid_argument("a capsule needs a length and a radius");
  const Vec3 axis = (b - a) / length;
  const int cap = std::max(2, segments / 4);  // rings per hemisphere
  std::vector<Eigen::Vector2d> profile;
  for (int k = 0; k <= cap; ++k) {  // the hemisphere around a, from its pole
    const double theta = 0.5 * std::numbers::pi * k / cap;
    profile.emplace_back(radius * (1.0 - std::cos(theta)), k == 0 ? 0.0 : radius * std::sin(theta));
  }
  for (int k = cap; k >= 0; --k) {  // the hemisphere around b, to its pole
    const double theta = 0.5 * std::numbers::pi * k / cap;
    profile.emplace_back(radius + length + radius * std::cos(theta), k == 0 ? 0.0 : radius * std::sin(theta));
  }
  return revolve(a - radius * axis, b + radius * axis, profile, segments);
}

TriangleMesh transformedMesh(const TriangleMesh& mesh, const Quat& rotation, const Vec3& translation) {
  TriangleMesh m = mesh;
  const Mat3 r = rotation.normalized().toRotationMatrix();
  for (Vec3& v : m.vertices) v = r * v + translation;
  return m;
}

void appendMesh(TriangleMesh& into, const TriangleMesh& more) {
  const auto offset = static_cast<std::uint32_t>(into.vertices.size());
  into.vertices.insert(into.vertices.end(), more.vertices.begin(), more.vertices.end());
  for (const auto& t : more.triangles)
    into.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
}

}  // namespace clumplab::shapes
