#include "core/world/Inlet.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/base/OrderedDraws.hpp"
#include "core/world/Generation.hpp"
#include "core/world/Placement.hpp"
#include "core/world/World.hpp"

namespace clumplab {

const char* inletStateName(InletState state) {
  switch (state) {
    case InletState::Waiting:
      return "waiting";
    case InletState::Running:
      return "running";
    case InletState::Full:
      return "full";
    case InletState::Done:
      return "done";
  }
  return "running";
}

bool InletProgress::operator==(const InletProgress& o) const {
  // NaN times (not full, not finished) compare equal to each other.
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  return state == o.state && insertedMass == o.insertedMass && insertedCount == o.insertedCount &&
         randomState == o.randomState && nextTemplate == o.nextTemplate && nextDrawn == o.nextDrawn &&
         nextTry == o.nextTry && failedTries == o.failedTries && failedInARow == o.failedInARow &&
         same(fullSince, o.fullSince) && same(finishedAt, o.finishedAt);
}

Vec3 InletRegion::middle() const {
  return kind == Kind::Box ? Vec3(0.5 * (min + max)) : center;
}

bool InletRegion::contains(const Vec3& x) const {
  if (kind == Kind::Box) return (x.array() >= min.array()).all() && (x.array() <= max.array()).all();
  const Vec3 d = x - center;
  const double along = d.dot(axis);
  return std::abs(along) <= 0.5 * height && (d - along * axis).squaredNorm() <= radius * radius;
}

Vec3 InletRegion::sample(SplitMix64& rng) const {
  if (kind == Kind::Box) {
    const Vec3 u = drawVec3LastFirst([&] { return rng.uniform(); });
    return min + u.cwiseProduct(max - min);
  }
  // Uniform in the disc (r = R sqrt(u)) times uniform along the axis.
  const double r = radius * std::sqrt(rng.uniform());
  const double phi = 2.0 * std::numbers::pi * rng.uniform();
  const double h = (rng.uniform() - 0.5) * height;
  const Vec3 e1 = axis.unitOrthogonal(), e2 = axis.cross(e1);
  return center + h * axis + r * (std::cos(phi) * e1 + std::sin(phi) * e2);
}

void InletRegion::bounds(Vec3& lower, Vec3& upper) const {
  if (kind == Kind::Box) {
    lower = min;
    upper = max;
    return;
  }
  // A disc of radius R normal to a reaches sqrt(1 - a_i^2) R along axis i; the two end discs.
  const Vec3 reach =
      radius * (Vec3::Ones() - axis.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt() + 0.5 * height * axis.cwiseAbs();
  lower = center - reach;
  upper = center + reach;
}

std::string inletSettingsProblem(const InletSettings& s, std::size_t templateCount) {
  const InletRegion& r = s.region;
  if (r.kind == InletRegion::Kind::Box) {
    if (!r.min.allFinite() || !r.max.allFinite()) return "the region's box corners must be finite";
    if (!(r.max.array() > r.min.array()).all())
      return "the region is empty: every component of max must exceed min";
  } else {
    if (!r.center.allFinite() || !r.axis.allFinite())
      return "the region's cylinder centre and axis must be finite";
    if (!(std::abs(r.axis.squaredNorm() - 1.0) < 1e-12)) return "the cylinder's axis must be a unit vector";
    if (!(r.radius > 0.0) || !std::isfinite(r.radius)) return "the cylinder's radius must be positive";
    if (!(r.height > 0.0) || !std::isfinite(r.height)) return "the cylinder's height must be positive";
  }
  if (s.templates.empty()) return "the inlet needs at least one template";
  if (s.weights.size() != s.templates.size()) return "one weight per template is needed";
  double sum = 0.0;
  for (std::size_t i = 0; i < s.templates.size(); ++i) {
    if (s.templates[i] >= templateCount) return "unknown template index " + std::to_string(s.templates[i]);
    if (!(s.weights[i] >= 0.0) || !std::isfinite(s.weights[i])) return "weights must be finite and >= 0";
    sum += s.weights[i];
  }
  if (!(sum > 0.0)) return "at least one template needs a positive weight";
  if (!(s.massRate > 0.0) || !std::isfinite(s.massRate)) return "the mass rate must be positive [kg/s]";
  if (!(s.maxMass > 0.0)) return "the maximum mass must be positive [kg]";
  if (s.maxCount < 1) return "the maximum count must be at least 1";
  if (!s.velocity.allFinite()) return "the velocity must be finite";
  if (!(s.velocitySpread >= 0.0) || !std::isfinite(s.velocitySpread))
    return "the velocity spread must be >= 0";
  if (!(s.start >= 0.0) || !std::isfinite(s.start)) return "the start time must be finite and >= 0";
  if (s.attempts < 1 || s.attempts > 1000000) return "attempts must lie in [1, 1e6]";
  if (!(s.retryInterval > 0.0) || !std::isfinite(s.retryInterval))
    return "the retry interval must be positive";
  return "";
}

Inlet::Inlet(InletSettings settings) : Inlet(std::move(settings), InletProgress{}) {
  progress_.randomState = settings_.seed;
}

Inlet::Inlet(InletSettings settings, const InletProgress& progress)
    : settings_(std::move(settings)), progress_(progress) {
  const std::string problem = inletSettingsProblem(settings_, std::numeric_limits<std::size_t>::max());
  if (!problem.empty()) throw std::invalid_argument(problem);
  if (progress_.nextTemplate >= settings_.templates.size())
    throw std::invalid_argument("the inlet's next template is out of range");
}

double Inlet::targetMass(double t) const {
  return std::min(settings_.maxMass, settings_.massRate * std::max(0.0, t - settings_.start));
}

double Inlet::owedMass(double t) const {
  if (progress_.state == InletState::Done) return 0.0;
  return std::max(0.0, targetMass(t) - progress_.insertedMass);
}

void Inlet::drawNext(SplitMix64& rng) {
  double sum = 0.0;
  for (const double w : settings_.weights) sum += w;
  double u = rng.uniform() * sum;
  std::uint32_t pick = 0;
  for (std::size_t i = 0; i < settings_.weights.size(); ++i) {
    if (settings_.weights[i] <= 0.0) continue;
    pick = static_cast<std::uint32_t>(i);
    if (u < settings_.weights[i]) break;
    u -= settings_.weights[i];
  }
  progress_.nextTemplate = pick;
  progress_.nextDrawn = true;
}

void Inlet::finish(double t) {
  progress_.state = InletState::Done;
  progress_.finishedAt = t;
}

namespace {
// In the 2D mode the direction across the plane is not tested: points are taken onto the plane
// through the region's middle parallel to the 2D plane.
bool fitsRegion(const PlacedBody& body, const InletRegion& region, const PlaneConstraint& plane) {
  const auto inside = [&](Vec3 x) {
    if (plane.enabled) x -= (x - region.middle()).dot(plane.normal) * plane.normal;
    return region.contains(x);
  };
  for (const Pebble& p : body.shape->pebbles) {
    const Vec3 c = body.position + body.orientation * p.center;
    const Vec3 shaft = p.halfLength * (body.orientation * p.axis);
    if (!inside(c - shaft) || !inside(c + shaft)) return false;
  }
  return true;
}

// The world's bodies that a body inserted in the region could touch (all of them with periodic axes).
PlacementSet occupiedNear(const World& world, const InletRegion& region) {
  double reach = 0.0;
  for (const TemplatePtr& t : world.model().templates) reach = std::max(reach, t->boundingRadius);
  PlacementSet set(reach, world.model().settings.periodic);
  Vec3 lower, upper;
  region.bounds(lower, upper);
  lower.array() -= 2.0 * reach;
  upper.array() += 2.0 * reach;
  const bool all = world.model().settings.periodic.any();
  const BodyState& b = world.bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    const Vec3& x = b.position[i];
    if (!all && ((x.array() < lower.array()).any() || (x.array() > upper.array()).any())) continue;
    set.add({x, b.orientation[i], world.model().templates[b.templateIndex[i]].get()});
  }
  return set;
}
}  // namespace

bool Inlet::placeOne(World& world, std::uint32_t templateIndex, SplitMix64& rng, PlacementSet& occupied) {
  const ClumpTemplate& shape = *world.model().templates[templateIndex];
  const PlaneConstraint& plane = world.model().settings.plane;
  for (int attempt = 0; attempt < settings_.attempts; ++attempt) {
    Vec3 position = settings_.region.sample(rng);
    if (plane.enabled) position = plane.onPlane(position);
    // Uniform on SO(3) (Shoemake); in 2D lying flat at a uniform angle about the normal.
    const Quat orientation = plane.enabled ? flatRandomRotation(rng, plane.normal) : randomRotation(rng);
    PlacedBody candidate{position, orientation, &shape};
    if (!fitsRegion(candidate, settings_.region, plane)) continue;
    candidate.position = world.model().settings.periodic.wrap(position);
    // Mesh walls where they are now (a moving container), not where they started.
    if (!clearOfWalls(candidate, world.model().walls, world.time()) || occupied.overlapsAny(candidate))
      continue;
    Vec3 velocity = settings_.velocity;
    if (settings_.velocitySpread > 0.0) velocity += randomInBall(rng, settings_.velocitySpread);
    if (plane.enabled) velocity = plane.inPlane(velocity);
    BodyInit body;
    body.templateIndex = templateIndex;
    body.position = candidate.position;
    body.orientation = orientation;
    body.velocity = velocity;
    world.addBody(body);
    occupied.add(candidate);
    return true;
  }
  return false;
}

void Inlet::insertDue(World& world) {
  InletProgress& p = progress_;
  if (p.state == InletState::Done) return;
  const double t = world.time();
  if (t < settings_.start) return;
  if (p.state == InletState::Waiting) p.state = InletState::Running;
  if (t < p.nextTry) return;
  SplitMix64 rng(p.randomState);
  if (!p.nextDrawn) drawNext(rng);
  std::optional<PlacementSet> occupied;  // built once a body is due
  for (;;) {
    if (p.insertedCount >= settings_.maxCount) {
      finish(t);
      break;
    }
    const std::uint32_t templateIndex = settings_.templates[p.nextTemplate];
    const double mass = world.model().templates[templateIndex]->mass;
    if (p.insertedMass + mass > settings_.maxMass) {  // the next body would pass max_mass
      finish(t);
      break;
    }
    if (p.insertedMass + mass > settings_.massRate * (t - settings_.start)) break;  // not due yet
    if (!occupied) occupied.emplace(occupiedNear(world, settings_.region));
    if (!placeOne(world, templateIndex, rng, *occupied)) {
      // No room: the unmet mass carries over to the next try, a retry interval later.
      ++p.failedTries;
      if (p.failedInARow++ == 0) p.fullSince = t;
      p.state = InletState::Full;
      p.nextTry = t + settings_.retryInterval;
      break;
    }
    p.insertedMass += mass;
    ++p.insertedCount;
    p.failedInARow = 0;
    p.fullSince = std::numeric_limits<double>::quiet_NaN();
    p.state = InletState::Running;
    drawNext(rng);
  }
  p.randomState = rng.state();
}

}  // namespace clumplab
