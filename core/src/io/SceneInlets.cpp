#include "SceneInlets.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace clumplab::scene_detail {

using json_reader::Node;
using json_writer::OrderedJson;
using json_writer::vec;

namespace {

InletRegion readRegion(const Node& node) {
  node.requireObject();
  node.allowOnly({"box", "cylinder"});
  if (node.has("box") == node.has("cylinder")) node.fail("give exactly one of \"box\" and \"cylinder\"");
  InletRegion r;
  if (node.has("box")) {
    const Node box = node.child("box");
    box.allowOnly({"min", "max"});
    r.kind = InletRegion::Kind::Box;
    r.min = box.child("min").vec3();
    r.max = box.child("max").vec3();
    if (!(r.max.array() > r.min.array()).all())
      box.child("max").fail("the region is empty: every component of max must exceed min");
    return r;
  }
  const Node c = node.child("cylinder");
  c.allowOnly({"center", "axis", "radius", "height"});
  r.kind = InletRegion::Kind::Cylinder;
  r.center = c.child("center").vec3();
  const Vec3 axis = c.child("axis").vec3();
  if (!(axis.norm() > 1e-12)) c.child("axis").fail("the axis must not be zero");
  r.axis = std::abs(axis.squaredNorm() - 1.0) < 1e-15 ? axis : Vec3(axis.normalized());
  r.radius = c.child("radius").number();
  if (!(r.radius > 0.0))
    c.child("radius").fail("the cylinder's radius must be positive (a zero-size region)");
  r.height = c.child("height").number();
  if (!(r.height > 0.0))
    c.child("height").fail("the cylinder's height must be positive (a zero-size region)");
  return r;
}

// "templates": ["a", "b"] (equal weights), or [{"template": "a", "weight": 2}, ...] (weights by
// count), or [{"template": "a", "mass_fraction": 0.7}, ...] (shares of the inserted mass).
void readTemplates(const Node& node, const std::map<std::string, std::uint32_t>& names, const Scene& scene,
                   InletSettings& s) {
  const std::size_t n = node.arraySize();
  if (n == 0) node.fail("name at least one template");
  std::set<std::string> seen;
  int fractions = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Node e = node.element(i);
    double weight = 1.0, fraction = -1.0;
    if (!e.json().is_string()) {
      e.requireObject();
      e.allowOnly({"template", "weight", "mass_fraction"});
      if (e.has("weight") && e.has("mass_fraction")) e.fail("give \"weight\" or \"mass_fraction\", not both");
      if (e.has("weight")) weight = e.child("weight").positive();
      if (e.has("mass_fraction")) {
        fraction = e.child("mass_fraction").positive();
        ++fractions;
      }
    }
    const Node name = e.json().is_string() ? e : e.child("template");
    const std::string key = name.string();
    const auto it = names.find(key);
    if (it == names.end()) name.fail("unknown template \"" + key + "\"");
    if (!seen.insert(key).second) name.fail("template \"" + key + "\" named twice");
    s.templates.push_back(it->second);
    // A mass fraction f of template mass m is a count weight f / m.
    s.weights.push_back(fraction > 0.0 ? fraction / scene.model.templates[it->second]->mass : weight);
    if (fraction > 0.0) s.massFractions.push_back(fraction);
  }
  if (fractions != 0 && fractions != static_cast<int>(n))
    node.fail("give every template a \"mass_fraction\", or none (weights by count)");
}

std::uint64_t readRandomState(const Node& node) {
  const std::string text = node.string();
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 16);
  if (text.size() < 3 || text.rfind("0x", 0) != 0 || end == nullptr || *end != '\0')
    node.fail("expected a hexadecimal string such as \"0x9e3779b97f4a7c15\"");
  return static_cast<std::uint64_t>(v);
}

double timeOrNaN(const Node& node, std::string_view key) {
  return node.has(key) ? node.child(key).nonNegative() : std::numeric_limits<double>::quiet_NaN();
}

std::uint64_t count(const Node& node) {
  const long long n = node.integer();
  if (n < 0) node.fail("must be >= 0");
  return static_cast<std::uint64_t>(n);
}

// "progress": what a saved running world's inlet had done (Inlet.hpp's InletProgress).
InletProgress readProgress(const Node& node, const InletSettings& s,
                           const std::map<std::string, std::uint32_t>& names) {
  node.allowOnly({"state", "inserted_mass", "inserted_count", "random_state", "next_template", "next_try",
                  "failed_tries", "failed_in_a_row", "full_since", "finished_at"});
  InletProgress p;
  const Node state = node.child("state");
  const std::string name = state.string();
  bool known = false;
  for (const InletState k : {InletState::Waiting, InletState::Running, InletState::Full, InletState::Done}) {
    if (name == inletStateName(k)) {
      p.state = k;
      known = true;
    }
  }
  if (!known) state.fail("unknown state \"" + name + "\" (use waiting, running, full or done)");
  p.insertedMass = node.child("inserted_mass").nonNegative();
  p.insertedCount = count(node.child("inserted_count"));
  p.randomState = readRandomState(node.child("random_state"));
  if (node.has("next_template")) {
    const Node next = node.child("next_template");
    const auto it = names.find(next.string());
    bool found = false;
    for (std::size_t i = 0; it != names.end() && i < s.templates.size(); ++i) {
      if (s.templates[i] == it->second) {
        p.nextTemplate = static_cast<std::uint32_t>(i);
        found = true;
      }
    }
    if (!found) next.fail("\"" + next.string() + "\" is not one of this inlet's templates");
    p.nextDrawn = true;
  }
  if (node.has("next_try")) p.nextTry = node.child("next_try").nonNegative();
  if (node.has("failed_tries")) p.failedTries = count(node.child("failed_tries"));
  if (node.has("failed_in_a_row")) p.failedInARow = count(node.child("failed_in_a_row"));
  p.fullSince = timeOrNaN(node, "full_since");
  p.finishedAt = timeOrNaN(node, "finished_at");
  if (p.state == InletState::Done && std::isnan(p.finishedAt))
    node.fail("a done inlet needs \"finished_at\" (the time it finished) [s]");
  return p;
}

}  // namespace

void readInlets(const Node& node, const std::map<std::string, std::uint32_t>& names, Scene& scene) {
  for (std::size_t i = 0; i < node.arraySize(); ++i) {
    const Node e = node.element(i);
    e.requireObject();
    e.allowOnly({"region", "templates", "mass_rate", "max_mass", "max_count", "velocity", "velocity_spread",
                 "seed", "start", "attempts", "retry_interval", "progress"});
    InletSettings s;
    s.region = readRegion(e.child("region"));
    readTemplates(e.child("templates"), names, scene, s);
    s.massRate = e.child("mass_rate").number();
    if (!(s.massRate > 0.0)) e.child("mass_rate").fail("the mass rate must be positive [kg/s]");
    if (e.has("max_mass")) s.maxMass = e.child("max_mass").positive();
    if (e.has("max_count")) {
      const long long n = e.child("max_count").integer();
      if (n < 1) e.child("max_count").fail("the maximum count must be at least 1");
      s.maxCount = static_cast<std::uint64_t>(n);
    }
    double lightest = std::numeric_limits<double>::infinity();
    for (const std::uint32_t t : s.templates) lightest = std::min(lightest, scene.model.templates[t]->mass);
    if (s.maxMass < lightest) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "%.6g kg is below the lightest template's mass %.6g kg: nothing would be inserted",
                    s.maxMass, lightest);
      e.child("max_mass").fail(text);
    }
    if (e.has("velocity")) s.velocity = e.child("velocity").vec3();
    s.velocitySpread = e.nonNegativeOr("velocity_spread", 0.0);
    if (e.has("seed")) {
      const long long seed = e.child("seed").integer();
      if (seed < 0) e.child("seed").fail("the seed must be >= 0");
      s.seed = static_cast<std::uint64_t>(seed);
    }
    s.start = e.nonNegativeOr("start", 0.0);
    if (e.has("attempts")) {
      const long long n = e.child("attempts").integer();
      if (n < 1 || n > 1000000) e.child("attempts").fail("must lie in [1, 1e6]");
      s.attempts = static_cast<int>(n);
    }
    s.retryInterval = e.positiveOr("retry_interval", s.retryInterval);
    if (e.has("progress")) {
      scene.inlets.emplace_back(s, readProgress(e.child("progress"), s, names));
    } else {
      scene.inlets.emplace_back(s);
    }
  }
}

OrderedJson inletsJson(const std::vector<Inlet>& inlets, const std::vector<std::string>& templateKeys) {
  OrderedJson out = OrderedJson::array();
  for (const Inlet& inlet : inlets) {
    const InletSettings& s = inlet.settings();
    OrderedJson j;
    const InletRegion& r = s.region;
    if (r.kind == InletRegion::Kind::Box) {
      j["region"] = {{"box", {{"min", vec(r.min)}, {"max", vec(r.max)}}}};
    } else {
      j["region"] = {
          {"cylinder",
           {{"center", vec(r.center)}, {"axis", vec(r.axis)}, {"radius", r.radius}, {"height", r.height}}}};
    }
    OrderedJson templates = OrderedJson::array();
    for (std::size_t i = 0; i < s.templates.size(); ++i) {
      const std::string& key = templateKeys.at(s.templates[i]);
      if (!s.massFractions.empty()) {
        templates.push_back({{"template", key}, {"mass_fraction", s.massFractions[i]}});
      } else {
        templates.push_back({{"template", key}, {"weight", s.weights[i]}});
      }
    }
    j["templates"] = std::move(templates);
    j["mass_rate"] = s.massRate;
    if (std::isfinite(s.maxMass)) j["max_mass"] = s.maxMass;
    if (s.maxCount != std::numeric_limits<std::uint64_t>::max()) j["max_count"] = s.maxCount;
    j["velocity"] = vec(s.velocity);
    j["velocity_spread"] = s.velocitySpread;
    j["seed"] = s.seed;
    j["start"] = s.start;
    j["attempts"] = s.attempts;
    j["retry_interval"] = s.retryInterval;
    const InletProgress& p = inlet.progress();
    if (!(p == Inlet(s).progress())) {  // it has run: where it stands, so a reload continues it
      OrderedJson q;
      q["state"] = inletStateName(p.state);
      q["inserted_mass"] = p.insertedMass;
      q["inserted_count"] = p.insertedCount;
      char state[32];
      std::snprintf(state, sizeof state, "0x%016llx", static_cast<unsigned long long>(p.randomState));
      q["random_state"] = state;
      if (p.nextDrawn) q["next_template"] = templateKeys.at(s.templates[p.nextTemplate]);
      if (std::isfinite(p.nextTry)) q["next_try"] = p.nextTry;
      q["failed_tries"] = p.failedTries;
      q["failed_in_a_row"] = p.failedInARow;
      if (!std::isnan(p.fullSince)) q["full_since"] = p.fullSince;
      if (!std::isnan(p.finishedAt)) q["finished_at"] = p.finishedAt;
      j["progress"] = std::move(q);
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace clumplab::scene_detail
