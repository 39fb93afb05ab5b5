#pragma once
// Scenes for the tests of the broad phase (tst_broad_phase): random polydisperse scenes in the form
// NeighborList reads (pebble radii spanning 50x, fine many-pebble clumps beside coarse ones, random
// orientations, walls of every kind and periodic axes), and the exact searches its lists are checked
// against.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "MeshWallSupport.hpp"
#include "core/collision/NeighborList.hpp"
#include "core/world/World.hpp"

namespace clumplab::test {

// Mass properties play no part in the broad phase: a unit mass with isotropic inertia about the
// pebbles' mean centre (no pebble-union integration, which would be most of the test's time).
inline TemplatePtr givenMassTemplate(const std::vector<Pebble>& p) {
  MassProperties m;
  m.mass = 1.0;
  m.volume = 1e-6;
  for (const Pebble& q : p) m.centerOfMass += q.center / static_cast<double>(p.size());
  m.inertiaTensor = Mat3::Identity() * 1e-6;
  return std::make_shared<const ClumpTemplate>(makeTemplate("random", p, m, "given", 1000.0));
}

// Random clump templates: `pebbles` pebbles of radius ~`radius` [m] (within a factor 1.5) scattered
// in a blob of a few radii, optionally spherocylinders; and mixed ones with one coarse pebble.
inline TemplatePtr randomTemplate(std::mt19937& rng, int pebbles, double radius, bool capsules,
                                  bool coarseMember) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), size(0.7, 1.05);
  std::vector<Pebble> p;
  const double spread = radius * std::cbrt(static_cast<double>(pebbles));
  for (int k = 0; k < pebbles; ++k) {
    Pebble q;
    q.center = spread * Vec3(u(rng), u(rng), 0.5 * u(rng));
    q.radius = radius * size(rng);
    if (capsules && k % 3 == 0) {
      q.axis = Vec3(u(rng), u(rng), u(rng) + 2.0).normalized();
      q.halfLength = 0.8 * radius;
    }
    p.push_back(q);
  }
  if (coarseMember) p.push_back({Vec3(spread, 0, 0), 3.0 * spread});
  return givenMassTemplate(p);
}

inline Quat randomOrientation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

// A scene in the form NeighborList reads, with its world pebble arrays filled from the body poses.
struct TestScene {
  std::vector<TemplatePtr> templates;
  std::vector<Vec3> bodyPosition;
  std::vector<Quat> bodyOrientation;
  std::vector<std::uint32_t> bodyFirstPebble, bodyTemplate, pebbleBody;
  std::vector<Vec3> position;
  std::vector<double> radius, halfLength;
  std::vector<Wall> walls;
  PeriodicBox box;
  bool capsules = false;

  void addBody(std::uint32_t t, const Vec3& x, const Quat& q) {
    bodyFirstPebble.push_back(static_cast<std::uint32_t>(radius.size()));
    bodyTemplate.push_back(t);
    bodyPosition.push_back(x);
    bodyOrientation.push_back(q);
    for (const Pebble& p : templates[t]->pebbles) {
      pebbleBody.push_back(static_cast<std::uint32_t>(bodyPosition.size() - 1));
      radius.push_back(p.radius);
      halfLength.push_back(p.halfLength);
      position.emplace_back();
    }
    place();
  }
  void place() {
    for (std::size_t b = 0; b < bodyPosition.size(); ++b) {
      const Mat3 r = bodyOrientation[b].toRotationMatrix();
      const auto& pebbles = templates[bodyTemplate[b]]->pebbles;
      for (std::size_t k = 0; k < pebbles.size(); ++k) {
        position[bodyFirstPebble[b] + k] = bodyPosition[b] + r * pebbles[k].center;
      }
    }
  }
  const std::vector<double>& halfLengths() const { return capsules ? halfLength : empty; }
  BroadPhaseInput input() const {
    return {position,        radius,       halfLengths(), bodyPosition, bodyOrientation,
            bodyFirstPebble, bodyTemplate, templates,     walls,        box};
  }
  double reach(std::size_t i) const { return capsules ? radius[i] + halfLength[i] : radius[i]; }
  std::vector<double> empty;
};

// A broad phase and the lists it builds (the contact history a world keeps in its state).
struct BuiltLists {
  NeighborList broadPhase;
  ContactHistory history;
};

// A neighbour list with `skin` [m], built for `s`.
inline BuiltLists builtList(const TestScene& s, double skin, ThreadPool* pool = nullptr) {
  BuiltLists list;
  list.broadPhase.setSkin(skin);
  list.broadPhase.rebuild(s.input(), list.history, pool);
  return list;
}

// Every body of `s` moved rigidly at random: turned so that its pebbles move about `scale` [m], and
// (with `translate`) shifted by about as much.
inline TestScene randomlyMoved(const TestScene& s, double scale, bool translate, std::mt19937& rng) {
  std::normal_distribution<double> g;
  TestScene moved = s;
  for (std::size_t b = 0; b < moved.bodyPosition.size(); ++b) {
    const Vec3 shift = scale * Vec3(g(rng), g(rng), g(rng));
    if (translate) moved.bodyPosition[b] += shift;
    const double angle =
        scale / std::max(1e-3, moved.templates[moved.bodyTemplate[b]]->boundingRadius) * g(rng);
    moved.bodyOrientation[b] =
        (Eigen::AngleAxisd(angle, Vec3(g(rng), g(rng), g(rng)).normalized()) * moved.bodyOrientation[b])
            .normalized();
  }
  moved.place();
  return moved;
}

// The lists a search over all pairs gives: pebbles of different bodies closer than their reaches
// plus the skin (minimum image on periodic axes), and pebble-wall pairs nearer than the skin. Every
// pair with a coarse pebble (reach above 4 mm) is tested; the pairs of fine pebbles are enumerated by
// a sweep along x (cyclic on a periodic x) that skips only pairs farther apart along x than the
// largest fine range: exactly the all-pairs result, without its n^2 cost.
inline std::vector<PebblePair> bruteForcePairs(const TestScene& s, double skin) {
  constexpr double kCoarse = 4e-3;
  const std::size_t n = s.position.size();
  std::vector<PebblePair> out;
  const auto test = [&](std::uint32_t i, std::uint32_t j) {
    if (s.pebbleBody[i] == s.pebbleBody[j]) return;
    const std::uint32_t a = std::min(i, j), b = std::max(i, j);
    Vec3 d = s.position[b] - s.position[a];
    if (s.box.any()) d = s.box.minimumImage(d);
    const double range = s.reach(a) + s.reach(b) + skin;
    if (d.squaredNorm() < range * range) out.push_back({a, b});
  };
  double maxFine = 0.0;
  std::vector<std::uint32_t> fine;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (s.reach(i) > kCoarse) {
      for (std::uint32_t j = 0; j < n; ++j) test(i, j);
    } else {
      fine.push_back(i);
      maxFine = std::max(maxFine, s.reach(i));
    }
  }
  const double sweep = 2.0 * maxFine + skin;
  const bool cyclic = s.box.periodic[0];
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = cyclic ? s.box.wrap(s.position[i])[0] : s.position[i][0];
  std::sort(fine.begin(), fine.end(), [&](std::uint32_t p, std::uint32_t q) { return x[p] < x[q]; });
  const std::size_t m = fine.size();
  for (std::size_t k = 0; k < m; ++k) {
    for (std::size_t step = 1; step < m; ++step) {
      if (!cyclic && k + step >= m) break;
      const std::uint32_t i = fine[k], j = fine[(k + step) % m];
      double ahead = x[j] - x[i];
      if (ahead < 0.0) ahead += s.box.length[0];  // wrapped around
      if (ahead >= sweep) break;
      test(i, j);
    }
  }
  const auto less = [](const PebblePair& p, const PebblePair& q) {
    return p.a != q.a ? p.a < q.a : p.b < q.b;
  };
  std::sort(out.begin(), out.end(), less);
  out.erase(std::unique(out.begin(), out.end(),
                        [](const PebblePair& p, const PebblePair& q) { return p.a == q.a && p.b == q.b; }),
            out.end());
  return out;
}

inline std::vector<WallPair> bruteForceWallPairs(const TestScene& s, double skin) {
  std::vector<WallPair> out;
  for (std::uint32_t i = 0; i < s.position.size(); ++i) {
    for (std::uint32_t w = 0; w < s.walls.size(); ++w) {
      const Wall& wall = s.walls[w];
      if (wall.kind == Wall::Kind::Mesh || wall.passes(s.radius[i])) continue;
      if (wall.clearance(s.position[i]) - s.reach(i) >= skin) continue;
      const std::uint32_t ends = s.capsules && s.halfLength[i] > 0.0 ? 2 : 1;
      for (std::uint32_t e = 0; e < ends; ++e) out.push_back({i, w, e});
    }
  }
  return out;
}

inline bool samePairs(const std::vector<PebblePair>& x, const std::vector<PebblePair>& y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const PebblePair& p, const PebblePair& q) { return p.a == q.a && p.b == q.b; });
}
inline bool sameWallPairs(const std::vector<WallPair>& x, const std::vector<WallPair>& y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const WallPair& p, const WallPair& q) {
    return p.pebble == q.pebble && p.wall == q.wall && p.end == q.end;
  });
}

inline QString firstDifference(const std::vector<PebblePair>& got, const std::vector<PebblePair>& want) {
  std::vector<PebblePair> missing, extra;
  const auto less = [](const PebblePair& p, const PebblePair& q) {
    return p.a != q.a ? p.a < q.a : p.b < q.b;
  };
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing), less);
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra), less);
  return QString("%1 pairs, %2 expected; %3 missing (first %4-%5), %6 extra")
      .arg(got.size())
      .arg(want.size())
      .arg(missing.size())
      .arg(missing.empty() ? 0 : missing[0].a)
      .arg(missing.empty() ? 0 : missing[0].b)
      .arg(extra.size());
}

enum class Boundaries { BoxWalls, Periodic, PeriodicWithFloor, CavityAndMembrane };

// Fine many-pebble clumps (radius r), middle ones and coarse ones (radius up to 50 r), a few mixed
// templates, scattered densely enough in a region of edge `region` that many bodies overlap. The
// region and its boundaries are shifted by `origin` [m] (far from it, single-precision copies of
// positions round by up to a tenth of a pebble radius).
inline TestScene randomScene(std::uint32_t seed, Boundaries boundaries, bool capsules, int bodies,
                             const Vec3& origin = Vec3::Zero()) {
  std::mt19937 rng(seed);
  TestScene s;
  s.capsules = capsules;
  const double r = 1e-3;
  s.templates.push_back(randomTemplate(rng, 200, r, capsules, false));       // fine, many pebbles
  s.templates.push_back(randomTemplate(rng, 40, 3 * r, capsules, false));    // middle
  s.templates.push_back(randomTemplate(rng, 10, 1.5 * r, capsules, false));  // T-bar sized
  const double coarse = 25 * r;                                              // a coarse dumbbell
  s.templates.push_back(
      givenMassTemplate({{Vec3(-coarse / 2, 0, 0), coarse}, {Vec3(coarse / 2, 0, 0), 0.8 * coarse}}));
  s.templates.push_back(randomTemplate(rng, 1, 12 * r, false, false));      // single sphere
  s.templates.push_back(randomTemplate(rng, 60, 1.2 * r, capsules, true));  // fine with a coarse member
  // Scaled copies (radii down to 0.35 r: 70x below the coarse dumbbell's).
  s.templates.push_back(std::make_shared<const ClumpTemplate>(scaledTemplate(*s.templates[0], 0.5)));
  // Periodic lengths hold two coarse pair ranges (2 (2 x 1.5 coarse + skin)).
  const double region =
      boundaries == Boundaries::Periodic || boundaries == Boundaries::PeriodicWithFloor ? 0.16 : 0.1;
  const Vec3 lower = origin + Vec3(-region / 2, -region / 2, 0.0);
  if (boundaries == Boundaries::BoxWalls) {
    s.walls = Wall::box(lower, lower + Vec3::Constant(region));
    TriangleMesh floor = gridFloor(4, region, 0.01);
    for (Vec3& v : floor.vertices) v += origin;
    s.walls.push_back(meshWall(floor));
  } else if (boundaries == Boundaries::CavityAndMembrane) {
    s.walls = {Wall::cavity(lower + Vec3::Constant(region / 2), 0.55 * region),
               Wall::membrane(origin + Vec3(0, 0, region / 2), Vec3(0.2, 0.1, 1.0), 1.1 * r)};
  } else {
    s.box.lower = lower;
    s.box.length = Vec3::Constant(region);
    s.box.periodic = {true, true, boundaries == Boundaries::Periodic};
    if (boundaries == Boundaries::PeriodicWithFloor)
      s.walls = {Wall::plane(origin + Vec3(0, 0, 0.002), Vec3::UnitZ())};
  }
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::discrete_distribution<std::uint32_t> pick({6, 3, 8, 1, 2, 2, 4});
  for (int b = 0; b < bodies; ++b) {
    const std::uint32_t t = pick(rng);
    // Periodic scenes: centres anywhere, even outside the box (the broad phase wraps them).
    const double outside = s.box.any() ? 0.3 : 0.0;
    const Vec3 x =
        lower + region * Vec3(u(rng) * (1 + 2 * outside) - outside, u(rng) * (1 + 2 * outside) - outside,
                              s.box.periodic[2] ? u(rng) * (1 + 2 * outside) - outside : u(rng));
    s.addBody(t, x, randomOrientation(rng));
  }
  return s;
}

}  // namespace clumplab::test
