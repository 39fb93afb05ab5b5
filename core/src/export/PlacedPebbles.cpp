#include "core/export/PlacedPebbles.hpp"

namespace clumplab {

PebbleArrays placedPebbles(const BodyState& bodies, const std::vector<TemplatePtr>& templates) {
  PebbleArrays out;
  bool capsules = false;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    for (const Pebble& p : templates[bodies.templateIndex[b]]->pebbles) capsules = capsules || !p.isSphere();
  }
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Quat& q = bodies.orientation[b];
    for (const Pebble& p : templates[bodies.templateIndex[b]]->pebbles) {
      out.position.push_back(bodies.position[b] + q * p.center);
      out.radius.push_back(p.radius);
      out.body.push_back(static_cast<std::uint32_t>(b));
      if (capsules) {
        out.axis.push_back(q * p.axis);
        out.halfLength.push_back(p.halfLength);
      }
    }
  }
  return out;
}

}  // namespace clumplab
