#pragma once
// Scene texts shared by the tests of core: the project's T-bar as a scene file's template, and the
// pile of T-bars poured into a 4 x 4 x 8 cm box that tst_determinism and tst_broad_phase_trajectory run.
// Only what the tests have in common, to the digit, is here: what differs is given by each test.
#include <array>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>

namespace clumplab::test {

// The shortest text that reads back as `value` (std::to_chars).
inline std::string jsonNumber(double value) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
  return {text.data(), end};
}

// The project's T-bar (tbarPebbles(), docs/user-guide.md) as the scene-file template "tbar":
// density 2500, inertia from its 10 pebbles.
inline std::string tbarTemplateJson() {
  return R"("tbar": { "density": 2500, "inertia": "pebbles",
      "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.001, 0.001], [0, 0, 0.002, 0.001], [0, 0, 0.003, 0.001], [0, 0, 0.004, 0.001],
                  [-0.002, 0, 0.005, 0.001], [-0.001, 0, 0.005, 0.001], [0, 0, 0.005, 0.001], [0.001, 0, 0.005, 0.001], [0.002, 0, 0.005, 0.001]] })";
}

// `text` with its TBAR replaced by tbarTemplateJson(): a scene text whose templates hold the T-bar.
inline std::string withTbar(std::string text) {
  const auto at = text.find("TBAR");
  if (at == std::string::npos) throw std::logic_error("test bug: no TBAR in the scene text");
  return text.replace(at, 4, tbarTemplateJson());
}

// A pile: `count` T-bars, scaled copies (factors drawn in `scale`) at random orientations, generated
// with seed 7 in x, y in [-1.5, 1.5] cm and z in [0.5 cm, top], fall into the box [-2, 2] x [-2, 2]
// x [0, 8] cm; linear contacts of 1e3 N/m, restitution 0.5 and friction 0.5; leapfrog at 1e-5 s.
struct TbarPile {
  std::optional<std::string> description{};
  std::optional<double> skin{};               // [m]; the World's default when not given
  int count = 150;                            // T-bars
  double top = 0.07;                          // [m]
  std::array<double, 2> scale = {0.8, 1.2};   // scaled copies' factors
  std::optional<double> tangentialDamping{};  // [N s/m]; none when not given
  std::string moreTemplates{};                // scene-file templates after the T-bar ("name": {...})
  std::string moreGenerators{};               // "generate" entries after the T-bars' ({...})
};

inline std::string tbarPileJson(const TbarPile& pile) {
  std::string text = R"({
  "format": "clumplab-scene/1", )";
  if (pile.description) text += R"("description": ")" + *pile.description + R"(", )";
  text += R"("time_step": 1e-5, "integrator": "leapfrog", )";
  if (pile.skin) text += R"("skin": )" + jsonNumber(*pile.skin) + ", ";
  text += R"(
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.5)";
  if (pile.tangentialDamping) text += R"(, "tangential_damping": )" + jsonNumber(*pile.tangentialDamping);
  text += R"( },
  "walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.08] } ],
  "templates": { )";
  text += tbarTemplateJson();
  if (!pile.moreTemplates.empty()) text += ",\n      " + pile.moreTemplates;
  text += R"( },
  "generate": [ { "template": "tbar", "count": )";
  text += std::to_string(pile.count);
  text += R"(, "region": { "min": [-0.015, -0.015, 0.005], "max": [0.015, 0.015, )";
  text += jsonNumber(pile.top);
  text += R"(] },
                  "random_orientation": true, "scale": [)";
  text += jsonNumber(pile.scale[0]) + ", " + jsonNumber(pile.scale[1]);
  text += R"(], "seed": 7 })";
  if (!pile.moreGenerators.empty()) text += ",\n                " + pile.moreGenerators;
  text += R"( ]
})";
  return text;
}

}  // namespace clumplab::test
