#pragma once
// Writing JSON for people to read (private to core): objects one member a line, short objects and
// number rows on one line, so a scene of thousands of pebbles stays a file one can skim and diff.
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/Math.hpp"

namespace clumplab::json_writer {

using OrderedJson = nlohmann::ordered_json;

// Numbers are written as nlohmann writes them: the shortest text that reads back to the same
// double (at most 17 significant digits), so values survive a round trip bit for bit.
std::string pretty(const OrderedJson& value);

// A vector as [x, y, z] and a quaternion as [w, x, y, z] (docs/formats.md's order).
inline OrderedJson vec(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
inline OrderedJson quat(const Quat& q) {
  return {q.w(), q.x(), q.y(), q.z()};
}

}  // namespace clumplab::json_writer
