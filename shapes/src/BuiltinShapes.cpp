#include "shapes/BuiltinShapes.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "shapes/ImplicitMesher.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/PebbleLayouts.hpp"
#include "shapes/Primitives.hpp"

namespace clumplab::shapes {

namespace {
constexpr double mm = 1e-3;  // [m]

// A solid assembled from parts, each known as a signed distance (for the mesh) and as pebbles
// (for the clump), over a running bounding box.
class Assembly {
 public:
  // The points within r of the segment a-b; pebbles along it at most r/2 apart.
  void capsule(const Vec3& a, const Vec3& b, double r) {
    add([=](const Vec3& p) { return sdf::capsule(p, a, b, r); }, a.cwiseMin(b), a.cwiseMax(b), r);
    addPebbles(pebblesAlongSegment(a, b, r, 0.5 * r));
  }

  void sphere(const Vec3& c, double r) {
    add([=](const Vec3& p) { return sdf::sphere(p, c, r); }, c, c, r);
    pebbles_.push_back({c, r});
  }

  // A rectangle (centre c, half sides hu along u and hv along v) swept by a ball of radius r: a flat
  // plate 2r thick with fully rounded edges; pebbles of radius r on a grid over the rectangle.
  void slab(const Vec3& c, const Vec3& u, const Vec3& v, double hu, double hv, double r, double spacing) {
    Mat3 frame;
    frame << u, v, u.cross(v);
    const Quat turn(frame);
    add([=](const Vec3& p) { return sdf::box(p, c, Vec3(hu + r, hv + r, r), r, turn); },
        c - (hu * u).cwiseAbs() - (hv * v).cwiseAbs(), c + (hu * u).cwiseAbs() + (hv * v).cwiseAbs(), r);
    addPebbles(pebblesOnRectangle(c, u, v, hu, hv, r, spacing));
  }

  // A disc (centre c, normal axis, radius R) swept by a ball of radius r: a puck 2r thick with a
  // fully rounded rim; pebbles of radius r on the disc.
  void puck(const Vec3& c, const Vec3& axis, double discRadius, double r, double spacing) {
    add([=](const Vec3& p) { return sdf::cylinder(p, c - r * axis, c + r * axis, discRadius + r, r); },
        c - Vec3::Constant(discRadius), c + Vec3::Constant(discRadius), r);
    addPebbles(pebblesOnDisc(c, axis, discRadius, r, spacing));
  }

  std::vector<Pebble> pebbles() const { return withoutCoveredPebbles(pebbles_); }

  // The mesh of the union, with cells of (largest extent) / cellsAcross and a margin of 2 cells.
  TriangleMesh mesh(double cellsAcross) const {
    const double h = (upper_ - lower_).maxCoeff() / cellsAcross;
    return meshImplicit(unionOf(parts_), lower_ - Vec3::Constant(2.0 * h), upper_ + Vec3::Constant(2.0 * h),
                        h);
  }

 private:
  void add(SignedDistance part, const Vec3& lo, const Vec3& hi, double r) {
    parts_.push_back(std::move(part));
    lower_ = lower_.cwiseMin(lo - Vec3::Constant(r));
    upper_ = upper_.cwiseMax(hi + Vec3::Constant(r));
  }
  void addPebbles(const std::vector<Pebble>& more) {
    pebbles_.insert(pebbles_.end(), more.begin(), more.end());
  }

  std::vector<SignedDistance> parts_;
  std::vector<Pebble> pebbles_;
  Vec3 lower_ = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 upper_ = -Vec3::Constant(std::numeric_limits<double>::infinity());
};

BuiltinShape fromAssembly(const Assembly& a, double cellsAcross) {
  BuiltinShape s;
  s.mesh = a.mesh(cellsAcross);
  s.pebbles = a.pebbles();
  return s;
}

// The project's T-bar (docs/user-guide.md, resources/scenes/tbar-dzhanibekov.json): stem along z, crossbar
// along x.
BuiltinShape tHandle() {
  Assembly a;
  a.capsule(Vec3::Zero(), Vec3(0, 0, 4 * mm), 1 * mm);
  a.capsule(Vec3(-2 * mm, 0, 5 * mm), Vec3(2 * mm, 0, 5 * mm), 1 * mm);
  BuiltinShape s = fromAssembly(a, 46);
  s.pebbles.clear();
  for (int k = 0; k <= 4; ++k) s.pebbles.push_back({Vec3(0, 0, k * mm), 1 * mm});
  for (int k = -2; k <= 2; ++k) s.pebbles.push_back({Vec3(k * mm, 0, 5 * mm), 1 * mm});
  return s;
}

BuiltinShape wingnut() {
  Assembly a;
  a.puck(Vec3::Zero(), Vec3::UnitZ(), 1.0 * mm, 1.5 * mm, 0.75 * mm);
  for (const double side : {-1.0, 1.0}) {
    a.slab(Vec3(side * 3.5 * mm, 0, 2.0 * mm), Vec3::UnitX(), Vec3::UnitZ(), 1.4 * mm, 2.9 * mm, 0.6 * mm,
           0.4 * mm);
  }
  return fromAssembly(a, 47);
}

BuiltinShape dumbbell() {
  Assembly a;
  a.sphere(Vec3(-2.8 * mm, 0, 0), 2.2 * mm);
  a.sphere(Vec3(2.8 * mm, 0, 0), 2.2 * mm);
  a.capsule(Vec3(-2.8 * mm, 0, 0), Vec3(2.8 * mm, 0, 0), 0.6 * mm);
  return fromAssembly(a, 48);
}

BuiltinShape tetrapod() {
  Assembly a;
  for (const Vec3& corner : {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)}) {
    a.capsule(Vec3::Zero(), 5.5 * mm * corner.normalized(), 1.1 * mm);
  }
  return fromAssembly(a, 42);
}

BuiltinShape tennisRacket() {
  Assembly a;
  const Vec3 head(0, 2.0 * mm, 0);
  const double ax = 2.0 * mm, ay = 2.6 * mm, tube = 0.35 * mm;
  const int segments = 48;
  const auto onRim = [&](int k) {
    const double phi = 2.0 * std::numbers::pi * k / segments;
    return Vec3(head + Vec3(ax * std::sin(phi), -ay * std::cos(phi), 0));
  };
  for (int k = 0; k < segments; ++k) a.capsule(onRim(k), onRim(k + 1), tube);
  a.capsule(Vec3(0, -0.6 * mm, 0), Vec3(0, -5.0 * mm, 0), 0.5 * mm);
  return fromAssembly(a, 90);
}

BuiltinShape capsule() {
  BuiltinShape s;
  const Vec3 a(0, 0, -3 * mm), b(0, 0, 3 * mm);
  s.mesh = capsuleMesh(a, b, 2 * mm, 64);
  s.pebbles = pebblesAlongSegment(a, b, 2 * mm, 1 * mm);
  return s;
}

BuiltinShape rod() {
  BuiltinShape s;
  const double r = 0.5 * mm;
  s.mesh = cylinderMesh(Vec3(0, 0, -5 * mm), Vec3(0, 0, 5 * mm), r, 48);
  s.pebbles = pebblesAlongSegment(Vec3(0, 0, -5 * mm + r), Vec3(0, 0, 5 * mm - r), r, 0.5 * r);
  return s;
}

BuiltinShape cube() {
  BuiltinShape s;
  const double h = 5 * mm;
  s.mesh = boxMesh(Vec3::Constant(-h), Vec3::Constant(h));
  const auto inside = [h](const Vec3& p) { return p.cwiseAbs().maxCoeff() - h; };
  s.pebbles = withoutCoveredPebbles(
      pebblesFillingSolid(inside, Vec3::Constant(-h), Vec3::Constant(h), 1.25 * mm, 2.5 * mm, 0.5 * mm));
  return s;
}

BuiltinShape tetrahedron() {
  BuiltinShape s;
  const double h = 5 * mm;
  const Vec3 c[4] = {Vec3(h, h, h), Vec3(h, -h, -h), Vec3(-h, h, -h), Vec3(-h, -h, h)};
  s.mesh = tetrahedronMesh(c[0], c[1], c[2], c[3]);
  // Inside a convex solid the distance to the surface is the least distance to a face plane.
  const auto inside = [c](const Vec3& p) {
    double d = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < 4; ++k) {
      const Vec3 outward = -c[k].normalized();  // the face opposite corner k faces away from it
      d = std::max(d, (p - c[(k + 1) % 4]).dot(outward));
    }
    return d;
  };
  s.pebbles = withoutCoveredPebbles(
      pebblesFillingSolid(inside, Vec3::Constant(-h), Vec3::Constant(h), 0.8 * mm, 2.9 * mm, 0.3 * mm));
  return s;
}

BuiltinShape torus() {
  BuiltinShape s;
  const double ring = 3.5 * mm, tube = 1.5 * mm;
  s.mesh = torusMesh(Vec3::Zero(), ring, tube, 96, 48);
  s.pebbles = pebblesAlongCircle(Vec3::Zero(), Vec3::UnitZ(), ring, tube, 0.5 * tube);
  return s;
}

BuiltinShape sphere() {
  BuiltinShape s;
  s.mesh = uvSphereMesh(Vec3::Zero(), 5 * mm, 96, 48);
  s.pebbles = {{Vec3::Zero(), 5 * mm}};
  return s;
}

struct Entry {
  const char* name;
  const char* description;
  BuiltinShape (*make)();
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {"t-handle",
       "the project T-bar: a 4 mm stem and a 4 mm crossbar, capsules of radius 1 mm; its 10 pebbles are the "
       "T-bar's of the example scenes; spun about the crossbar (the intermediate axis) it flips over "
       "(Dzhanibekov)",
       tHandle},
      {"wingnut", "a rounded hub and two flat wings rising beside it: three distinct moments", wingnut},
      {"dumbbell", "two balls of radius 2.2 mm joined by a rod of radius 0.6 mm", dumbbell},
      {"capsule", "a spherocylinder: radius 2 mm, 6 mm between the centres of its caps", capsule},
      {"tetrapod", "four arms of radius 1 mm and 3.6 mm from the centre towards the corners of a tetrahedron",
       tetrapod},
      {"rod", "a cylinder 10 mm long of radius 0.5 mm with flat ends", rod},
      {"tennis-racket",
       "an elliptical frame (a tube of radius 0.35 mm) and a handle: spun about the in-plane axis "
       "across the handle it flips over (the tennis-racket theorem)",
       tennisRacket},
      {"cube", "a 10 mm cube; the clump is a grid fill of pebbles fitted inside", cube},
      {"tetrahedron", "a regular tetrahedron with 14.1 mm edges; the clump is a grid fill fitted inside",
       tetrahedron},
      {"torus", "a torus of ring radius 3.5 mm and tube radius 1.5 mm", torus},
      {"sphere", "a ball of radius 5 mm; the clump is one pebble", sphere},
  };
  return table;
}
}  // namespace

std::vector<std::string> builtinShapeNames() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) names.emplace_back(e.name);
  return names;
}

BuiltinShape makeBuiltinShape(const std::string& name, double size) {
  if (!std::isfinite(size) || size < 0.0) throw std::invalid_argument("the shape size must be a length >= 0");
  const auto it =
      std::find_if(entries().begin(), entries().end(), [&](const Entry& e) { return name == e.name; });
  if (it == entries().end()) {
    std::string valid;
    for (const std::string& n : builtinShapeNames()) valid += (valid.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown shape \"" + name + "\" (the built-in shapes are " + valid + ")");
  }
  BuiltinShape s = it->make();
  s.name = it->name;
  s.description = it->description;
  if (size > 0.0) {
    Vec3 lower, upper;
    meshBounds(s.mesh, lower, upper);
    const double factor = size / (upper - lower).maxCoeff();
    for (Vec3& v : s.mesh.vertices) v *= factor;
    for (Pebble& p : s.pebbles) {
      p.center *= factor;
      p.radius *= factor;
    }
  }
  return s;
}

}  // namespace clumplab::shapes
