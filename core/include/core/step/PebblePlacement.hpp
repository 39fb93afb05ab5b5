#pragma once
// Pebble world positions from the body poses (Mutze, Polyspherical grains, §4: pebble positions
// always come from the pose, never integrated on their own), body by body in chunks of bodies.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/clump/BodyState.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactSolver.hpp"

namespace clumplab {

// Where the body-frame pebbles are (each body's template: pebbles are the template's, never a copy
// per body, which for a million pebbles would be 24 MB of centres that every step streams through)
// and the world arrays placePebbles fills.
struct PebblePlacement {
  const std::vector<std::uint32_t>& bodyFirstPebble;
  const std::vector<TemplatePtr>& templates;  // the world's: bodies.templateIndex points into them
  PebbleArrays& world;
};

// Whether a body of these pebbles (its template's) has its one pebble at its centre of mass: in a
// world without spherocylinders placeBody then copies the body's position into it.
inline bool isCentredPebble(const std::vector<Pebble>& local) {
  return local.size() == 1 && local[0].center == Vec3::Zero();
}

// Whether every body of a world with these templates is one such pebble: then pebble i is body i's
// and sits at its centre to the bit, every step.
inline bool pebblesAreBodies(const std::vector<TemplatePtr>& templates, const PebbleArrays& world) {
  if (world.hasCapsules()) return false;
  return std::all_of(templates.begin(), templates.end(),
                     [](const TemplatePtr& t) { return isCentredPebble(t->pebbles); });
}

// Where body b's pose puts its pebbles (`local`, its template's, the first numbered `first`):
// at(p, position, axis) for each pebble p; the shaft axis only with kCapsules (else zero).
template <bool kCapsules, class At>
void placeBody(const BodyState& bodies, std::size_t b, std::uint32_t first, const std::vector<Pebble>& local,
               At&& at) {
  const Vec3 x = bodies.position[b];
  if (!kCapsules && isCentredPebble(local)) {
    at(first, x, Vec3::Zero());  // a sphere's pebble at its centre: x + R 0 is x to the bit
    return;
  }
  const Mat3 r = bodies.orientation[b].toRotationMatrix();
  for (std::size_t k = 0; k < local.size(); ++k) {
    const auto p = static_cast<std::uint32_t>(first + k);
    if constexpr (kCapsules) {
      at(p, x + r * local[k].center, r * local[k].axis);
    } else {
      at(p, x + r * local[k].center, Vec3::Zero());
    }
  }
}

// World positions (and, with kCapsules, shaft axes) of the pebbles of bodies [begin, end). For a
// body b with `visitBody(b)` true, `visit(p)` runs after each of its pebbles p is placed.
template <bool kCapsules, class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  for (std::size_t b = begin; b < end; ++b) {
    const std::uint32_t first = pebbles.bodyFirstPebble[b];
    const std::vector<Pebble>& local = pebbles.templates[bodies.templateIndex[b]]->pebbles;
    placeBody<kCapsules>(bodies, b, first, local,
                         [&](std::uint32_t p, const Vec3& position, const Vec3& axis) {
                           pebbles.world.position[p] = position;
                           if constexpr (kCapsules) pebbles.world.axis[p] = axis;
                         });
    if (visitBody(b)) {
      for (std::uint32_t p = first; p < first + local.size(); ++p) visit(p);
    }
  }
}

// Whether every pebble of `world` already sits where placePebbles would put it, to the bit (its
// position and shaft axis): then whoever must not move the world's pebbles may read them as they are.
template <bool kCapsules>
bool pebblesInPlace(const BodyState& bodies, const std::vector<std::uint32_t>& bodyFirstPebble,
                    const std::vector<TemplatePtr>& templates, const PebbleArrays& world) {
  bool same = true;
  for (std::size_t b = 0; b < bodies.size() && same; ++b) {
    placeBody<kCapsules>(bodies, b, bodyFirstPebble[b], templates[bodies.templateIndex[b]]->pebbles,
                         [&](std::uint32_t p, const Vec3& position, const Vec3& axis) {
                           same =
                               same && world.position[p] == position && (!kCapsules || world.axis[p] == axis);
                         });
  }
  return same;
}

inline bool pebblesInPlace(const BodyState& bodies, const std::vector<std::uint32_t>& bodyFirstPebble,
                           const std::vector<TemplatePtr>& templates, const PebbleArrays& world) {
  return world.hasCapsules() ? pebblesInPlace<true>(bodies, bodyFirstPebble, templates, world)
                             : pebblesInPlace<false>(bodies, bodyFirstPebble, templates, world);
}

template <class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  if (pebbles.world.hasCapsules()) {
    placePebbles<true>(bodies, pebbles, begin, end, visitBody, visit);
  } else {
    placePebbles<false>(bodies, pebbles, begin, end, visitBody, visit);
  }
}
}  // namespace clumplab
