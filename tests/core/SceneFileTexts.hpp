#pragma once
// The scene the scene-file tests edit (tst_scene_file, tst_scene_save): one three-pebble template and
// one body on a floor, and replaced(), which edits it or another scene text.
#include <QtGlobal>
#include <string>

namespace clumplab::test {

inline constexpr const char* kGood = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.5 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "tbar": { "density": 2500, "inertia": "pebbles",
                 "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.001, 0.001], [0.001, 0, 0.002, 0.001]] } },
  "bodies": [ { "template": "tbar", "position": [0, 0, 0.01], "orientation": [1, 0, 0, 0] } ]
})";

// `s` with the first `from` replaced by `to`; a `from` not in it is a bug of the test.
inline std::string replaced(const std::string& from, const std::string& to, std::string s = kGood) {
  const auto at = s.find(from);
  if (at == std::string::npos) qFatal("test bug: %s not in the scene", from.c_str());
  return s.replace(at, from.size(), to);
}

}  // namespace clumplab::test
