#include "core/export/WallSurfaces.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace clumplab {

Box3 wallDrawingDomain(const std::vector<Vec3>& points, double margin, const std::vector<Wall>& walls) {
  Box3 domain;  // empty
  for (const Vec3& p : points) domain.extend(p);
  if (!domain.isEmpty()) {
    domain.min().array() -= margin;
    domain.max().array() += margin;
  }
  for (const Wall& w : walls) {
    if (w.kind == Wall::Kind::SphereCavity) {
      domain.extend(w.point - Vec3::Constant(w.radius));
      domain.extend(w.point + Vec3::Constant(w.radius));
    } else {
      domain.extend(w.point);
    }
  }
  if (domain.isEmpty()) domain = Box3(Vec3::Constant(-0.5), Vec3::Constant(0.5));
  // Nothing is drawn beyond an axis-aligned plane on its far side: a box wall comes out as its faces.
  for (const Wall& w : walls) {
    if (w.kind != Wall::Kind::Plane) continue;
    for (int a = 0; a < 3; ++a) {
      if (std::abs(std::abs(w.normal[a]) - 1.0) > 1e-12) continue;
      const double at = w.point[a];
      if (w.normal[a] > 0.0 && at < domain.max()[a]) domain.min()[a] = std::max(domain.min()[a], at);
      if (w.normal[a] < 0.0 && at > domain.min()[a]) domain.max()[a] = std::min(domain.max()[a], at);
    }
  }
  // A flat or point-like domain (one body, one plane) gets some depth, so planes show as areas.
  const double size = std::max(domain.sizes().maxCoeff(), margin > 0.0 ? 4.0 * margin : 1e-3);
  for (int a = 0; a < 3; ++a) {
    if (domain.sizes()[a] < 1e-3 * size) {
      const double mid = domain.center()[a];
      domain.min()[a] = std::min(domain.min()[a], mid - 0.25 * size);
      domain.max()[a] = std::max(domain.max()[a], mid + 0.25 * size);
    }
  }
  return domain;
}

std::vector<Vec3> planeInBox(const Vec3& point, const Vec3& normal, const Box3& box) {
  // Every edge of the box that the plane crosses gives a corner of the polygon.
  std::vector<Vec3> corners;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (int i = 0; i < 4; ++i) {
      Vec3 from;
      from[a] = box.min()[a];
      from[b] = (i & 1) ? box.max()[b] : box.min()[b];
      from[c] = (i & 2) ? box.max()[c] : box.min()[c];
      Vec3 to = from;
      to[a] = box.max()[a];
      const double sFrom = (from - point).dot(normal), sTo = (to - point).dot(normal);
      if ((sFrom < 0.0 && sTo < 0.0) || (sFrom > 0.0 && sTo > 0.0) || sFrom == sTo) continue;
      const double t = sFrom / (sFrom - sTo);
      const Vec3 x = from + t * (to - from);
      const bool seen = std::any_of(corners.begin(), corners.end(), [&](const Vec3& y) {
        return (x - y).norm() <= 1e-12 * box.sizes().norm();
      });
      if (!seen) corners.push_back(x);
    }
  }
  if (corners.size() < 3) return {};
  Vec3 centre = Vec3::Zero();
  for (const Vec3& x : corners) centre += x;
  centre /= static_cast<double>(corners.size());
  const Vec3 u = normal.unitOrthogonal(), v = normal.cross(u);
  std::sort(corners.begin(), corners.end(), [&](const Vec3& p, const Vec3& q) {
    return std::atan2((p - centre).dot(v), (p - centre).dot(u)) <
           std::atan2((q - centre).dot(v), (q - centre).dot(u));
  });
  return corners;
}

namespace {

// A UV sphere of `rings` latitude bands and 2 rings longitudes, triangles facing inwards (the
// bodies are inside a cavity).
VtkSurface cavitySurface(const Wall& w, int index, int rings) {
  VtkSurface s{"sphere", index, {}, {}};
  const int sectors = 2 * rings;
  s.points.push_back(w.point + w.radius * Vec3::UnitZ());
  for (int i = 1; i < rings; ++i) {
    const double theta = std::numbers::pi * i / rings;
    for (int j = 0; j < sectors; ++j) {
      const double phi = 2.0 * std::numbers::pi * j / sectors;
      s.points.push_back(w.point + w.radius * Vec3(std::sin(theta) * std::cos(phi),
                                                   std::sin(theta) * std::sin(phi), std::cos(theta)));
    }
  }
  s.points.push_back(w.point - w.radius * Vec3::UnitZ());
  const int south = static_cast<int>(s.points.size()) - 1;
  const auto at = [&](int ring, int j) { return 1 + (ring - 1) * sectors + (j % sectors); };
  for (int j = 0; j < sectors; ++j) {
    s.polygons.push_back({0, at(1, j + 1), at(1, j)});
    s.polygons.push_back({south, at(rings - 1, j), at(rings - 1, j + 1)});
  }
  for (int i = 1; i + 1 < rings; ++i) {
    for (int j = 0; j < sectors; ++j) {
      s.polygons.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
    }
  }
  return s;
}

}  // namespace

std::vector<VtkSurface> wallSurfaces(const std::vector<Wall>& walls, const Box3& domain) {
  std::vector<VtkSurface> out;
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const Wall& w = walls[i];
    const int index = static_cast<int>(i);
    if (w.kind == Wall::Kind::SphereCavity) {
      out.push_back(cavitySurface(w, index, 12));
      continue;
    }
    if (w.kind != Wall::Kind::Plane && w.kind != Wall::Kind::Membrane) {
      out.push_back(VtkSurface{"other", index, {}, {}});  // drawn by its own surface source
      continue;
    }
    VtkSurface s{w.kind == Wall::Kind::Membrane ? "membrane" : "plane",
                 index,
                 planeInBox(w.point, w.normal, domain),
                 {}};
    if (!s.points.empty()) {
      std::vector<int> polygon(s.points.size());
      for (std::size_t k = 0; k < polygon.size(); ++k) polygon[k] = static_cast<int>(k);
      s.polygons.push_back(std::move(polygon));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace clumplab
