#include "PointKeys.hpp"

namespace clumplab::scene_detail {

namespace {
constexpr std::string_view kPointKeys[] = {"charge", "electric_dipole", "magnetic_dipole", "point_mass"};
}  // namespace

std::vector<std::string_view> withPointKeys(std::initializer_list<std::string_view> keys) {
  std::vector<std::string_view> all(keys);
  all.insert(all.end(), std::begin(kPointKeys), std::end(kPointKeys));
  return all;
}

bool hasPointKeys(const json_reader::Node& node) {
  for (const std::string_view key : kPointKeys) {
    if (node.has(key)) return true;
  }
  return false;
}

PointProperties readPointProperties(const json_reader::Node& node, const Quat& rotationFromInput,
                                    const PointProperties& defaults) {
  PointProperties p = defaults;
  if (node.has("charge")) p.charge = node.child("charge").number();
  if (node.has("electric_dipole"))
    p.electricDipole = rotationFromInput * node.child("electric_dipole").vec3();
  if (node.has("magnetic_dipole"))
    p.magneticDipole = rotationFromInput * node.child("magnetic_dipole").vec3();
  if (node.has("point_mass")) p.pointMass = node.child("point_mass").boolean();
  return p;
}

}  // namespace clumplab::scene_detail
