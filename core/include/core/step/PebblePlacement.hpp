#pragma once
// Pebble world positions from the body poses (Mutze, Polyspherical grains, §4: pebble positions
// always come from the pose, never integrated on their own), body by body in chunks of bodies.
#include <cstdint>
#include <vector>

#include "core/clump/BodyState.hpp"
#include "core/collision/ContactSolver.hpp"

namespace clumplab {

// Body-frame pebble data and the world arrays placePebbles fills.
struct PebblePlacement {
  const std::vector<std::uint32_t>& bodyFirstPebble;
  const std::vector<Vec3>& local;      // centres, body frame
  const std::vector<Vec3>& axisLocal;  // shaft axes, body frame (empty without spherocylinders)
  PebbleArrays& world;
};

// World positions (and, with kCapsules, shaft axes) of the pebbles of bodies [begin, end). For a
// body b with `visitBody(b)` true, `visit(p)` runs after each of its pebbles p is placed.
template <bool kCapsules, class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  const std::size_t n = bodies.size();
  for (std::size_t b = begin; b < end; ++b) {
    const Vec3 x = bodies.position[b];
    const std::uint32_t first = pebbles.bodyFirstPebble[b];
    const std::uint32_t last =
        b + 1 < n ? pebbles.bodyFirstPebble[b + 1] : static_cast<std::uint32_t>(pebbles.local.size());
    if (!kCapsules && last == first + 1 && pebbles.local[first] == Vec3::Zero()) {
      pebbles.world.position[first] = x;  // a sphere's pebble at its centre: x + R 0 is x to the bit
    } else {
      const Mat3 r = bodies.orientation[b].toRotationMatrix();
      for (std::uint32_t p = first; p < last; ++p) {
        pebbles.world.position[p] = x + r * pebbles.local[p];
        if constexpr (kCapsules) pebbles.world.axis[p] = r * pebbles.axisLocal[p];
      }
    }
    if (visitBody(b)) {
      for (std::uint32_t p = first; p < last; ++p) visit(p);
    }
  }
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
