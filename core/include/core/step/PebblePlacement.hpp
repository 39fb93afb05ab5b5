#pragma once
// Pebble world positions from the body poses (Mutze, Polyspherical grains, §4: pebble positions
// always come from the pose, never integrated on their own), body by body in chunks of bodies.
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

// World positions (and, with kCapsules, shaft axes) of the pebbles of bodies [begin, end). For a
// body b with `visitBody(b)` true, `visit(p)` runs after each of its pebbles p is placed.
template <bool kCapsules, class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  for (std::size_t b = begin; b < end; ++b) {
    const Vec3 x = bodies.position[b];
    const std::uint32_t first = pebbles.bodyFirstPebble[b];
    const std::vector<Pebble>& local = pebbles.templates[bodies.templateIndex[b]]->pebbles;
    const auto last = static_cast<std::uint32_t>(first + local.size());
    if (!kCapsules && local.size() == 1 && local[0].center == Vec3::Zero()) {
      pebbles.world.position[first] = x;  // a sphere's pebble at its centre: x + R 0 is x to the bit
    } else {
      const Mat3 r = bodies.orientation[b].toRotationMatrix();
      for (std::uint32_t p = first; p < last; ++p) {
        pebbles.world.position[p] = x + r * local[p - first].center;
        if constexpr (kCapsules) pebbles.world.axis[p] = r * local[p - first].axis;
      }
    }
    if (visitBody(b)) {
      for (std::uint32_t p = first; p < last; ++p) visit(p);
    }
  }
}

// Whether every pebble of `world` already sits where placePebbles would put it, to the bit (its
// position and shaft axis): then whoever must not move the world's pebbles may read them as they are.
inline bool pebblesInPlace(const BodyState& bodies, const std::vector<std::uint32_t>& bodyFirstPebble,
                           const std::vector<TemplatePtr>& templates, const PebbleArrays& world) {
  const bool capsules = world.hasCapsules();
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Vec3 x = bodies.position[b];
    const std::uint32_t first = bodyFirstPebble[b];
    const std::vector<Pebble>& local = templates[bodies.templateIndex[b]]->pebbles;
    if (!capsules && local.size() == 1 && local[0].center == Vec3::Zero()) {
      if (world.position[first] != x) return false;
      continue;
    }
    const Mat3 r = bodies.orientation[b].toRotationMatrix();
    for (std::size_t k = 0; k < local.size(); ++k) {
      if (world.position[first + k] != x + r * local[k].center) return false;
      if (capsules && world.axis[first + k] != r * local[k].axis) return false;
    }
  }
  return true;
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
