#include "gui/replay/ReplayDocument.hpp"

#include <algorithm>

#include "core/base/Errors.hpp"
#include "shapes/SceneLoading.hpp"

namespace clumplab::gui {

namespace {
// The embedded scene with its source meshes for drawing when they are found (relative paths
// resolve against the trajectory's folder); without them when not: the physics is in the file.
Scene embeddedScene(const std::string& json, const std::string& path) {
  try {
    return parseScene(json, path, shapes::sceneLoadOptions());
  } catch (const std::exception&) {
    return parseScene(json, path);
  }
}
}  // namespace

ReplayDocument::ReplayDocument(const std::string& path) : path_(path), trajectory_(readTrajectory(path)) {
  if (trajectory_.frames.empty()) throw InputError(path, "", "the trajectory holds no frames");
  scene_ = embeddedScene(trajectory_.sceneJson, path);
  // Frames name templates by the file's index; the scene lists them by key.
  for (const std::string& key : trajectory_.templateKeys) {
    const auto it = std::find_if(scene_.model.templates.begin(), scene_.model.templates.end(),
                                 [&](const TemplatePtr& t) { return t->name == key; });
    if (it == scene_.model.templates.end())
      throw InputError(path, "templates", "the embedded scene has no template '" + key + "'");
    templates_.push_back(*it);
  }
}

double ReplayDocument::startTime() const {
  return trajectory_.frames.front().time;
}

double ReplayDocument::endTime() const {
  return trajectory_.frames.back().time;
}

std::size_t ReplayDocument::frameAt(double time) const {
  const auto& frames = trajectory_.frames;
  const auto after = std::upper_bound(frames.begin(), frames.end(), time,
                                      [](double t, const TrajectoryFrame& f) { return t < f.time; });
  return after == frames.begin() ? 0 : static_cast<std::size_t>(after - frames.begin() - 1);
}

std::size_t ReplayDocument::nearestFrame(double time) const {
  const std::size_t before = frameAt(time);
  const std::size_t after = std::min(before + 1, frameCount() - 1);
  return std::abs(frame(after).time - time) < std::abs(time - frame(before).time) ? after : before;
}

std::size_t ReplayDocument::pebbles(std::size_t k) const {
  std::size_t n = 0;
  for (const std::uint32_t t : trajectory_.frames[k].bodies.templateIndex) n += templates_[t]->pebbles.size();
  return n;
}

void ReplayDocument::snapshot(std::size_t k, Snapshot& out) const {
  const TrajectoryFrame& f = trajectory_.frames[k];
  out.templates = templates_;
  out.walls = scene_.model.walls;
  out.periodic = scene_.model.settings.periodic;
  out.bodies = f.bodies;  // the file's doubles, as they are
  out.contactPoints.clear();
  out.time = f.time;
  out.steps = f.step;
  out.timeStep = scene_.model.settings.timeStep;
  out.pebbles = pebbles(k);
  out.contacts = 0;
  out.stageSeconds = {};
  out.broadPhaseBodySeconds = 0.0;
  out.broadPhasePebbleSeconds = 0.0;
  EnergyReport e;
  e.time = f.time;
  const Vec3 g = scene_.model.settings.gravity;
  for (std::size_t b = 0; b < f.bodies.size(); ++b) {
    const ClumpTemplate& t = *templates_[f.bodies.templateIndex[b]];
    const Vec3& x = f.bodies.position[b];
    const Vec3& v = f.bodies.velocity[b];
    const Quat& q = f.bodies.orientation[b];
    const Vec3 angularMomentumBody =
        t.principalMoments.cwiseProduct(q.conjugate() * f.bodies.angularVelocity[b]);
    e.keTranslational += 0.5 * t.mass * v.squaredNorm();
    e.keRotational += 0.5 * angularMomentumBody.dot(q.conjugate() * f.bodies.angularVelocity[b]);
    e.peGravity -= t.mass * g.dot(x);
    e.momentum += t.mass * v;
    e.angularMomentum += x.cross(t.mass * v) + q * angularMomentumBody;
  }
  out.energy = e;
}

}  // namespace clumplab::gui
