#pragma once
// Scene texts that the window tests share (tst_gui, tst_gui_parameters, tst_gui_bodies,
// tst_gui_recording): opened through openScene or written with writeFile (GuiTestSupport.hpp).

namespace clumplab::gui::test {

// One sphere of radius 5 cm falling freely (no walls) with a 1 ms step.
inline constexpr const char* kFallingSphere = R"({
  "format": "clumplab-scene/1", "time_step": 1e-3, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.0 },
  "templates": { "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.05]] } },
  "bodies": [ { "template": "ball", "position": [0, 0, 1] } ] })";

// Two balls resting apart on a floor, one at the origin.
inline constexpr const char* kTwoBalls = R"({
  "format": "clumplab-scene/1", "time_step": 1e-4, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.3 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.05]] } },
  "bodies": [ { "template": "ball", "position": [0, 0, 0.05] },
              { "template": "ball", "position": [0.3, 0, 0.05] } ] })";

}  // namespace clumplab::gui::test
