#pragma once
// The keys of a body's point properties (Fields.hpp) in scene and template files, private to core:
// "charge", "electric_dipole", "magnetic_dipole" (in the template's input frame, stored in the
// principal frame) and "point_mass". A template's keys are the defaults of its bodies; a body's or a
// "generate" entry's keys override them one by one.
#include <initializer_list>
#include <string_view>
#include <vector>

#include "JsonReader.hpp"
#include "core/clump/PointProperties.hpp"

namespace clumplab::scene_detail {

// `keys` and the point-property keys, for Node::allowOnly.
std::vector<std::string_view> withPointKeys(std::initializer_list<std::string_view> keys);
bool hasPointKeys(const json_reader::Node& node);

// `defaults` with the keys `node` gives; dipoles rotated by `rotationFromInput` into the principal frame.
PointProperties readPointProperties(const json_reader::Node& node, const Quat& rotationFromInput,
                                    const PointProperties& defaults);

// Writes the keys in which `p` differs from `defaults` (dipoles in the principal frame), so that
// reading them over the same defaults gives `p` back exactly.
template <class JsonObject>
void writePointProperties(const PointProperties& p, const PointProperties& defaults, JsonObject& out) {
  const auto vec = [](const Vec3& v) { return std::vector<double>{v.x(), v.y(), v.z()}; };
  if (p.charge != defaults.charge) out["charge"] = p.charge;
  if (p.electricDipole != defaults.electricDipole) out["electric_dipole"] = vec(p.electricDipole);
  if (p.magneticDipole != defaults.magneticDipole) out["magnetic_dipole"] = vec(p.magneticDipole);
  if (p.pointMass != defaults.pointMass) out["point_mass"] = p.pointMass;
}

}  // namespace clumplab::scene_detail
