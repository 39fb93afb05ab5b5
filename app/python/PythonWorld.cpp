#include "PythonWorld.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "core/io/SceneWriter.hpp"

namespace clumplab::python {

PythonWorld::PythonWorld(Scene scene) : scene_(std::move(scene)), world_(buildWorld(scene_)) {}

StepSlice PythonWorld::stepSlice(long long steps, double sliceSeconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(sliceSeconds));
  StepSlice slice;
  while (slice.steps < steps) {
    if (!world_->step()) {
      slice.diverged = true;
      break;
    }
    ++slice.steps;
    if (Clock::now() >= end) break;
  }
  return slice;
}

void PythonWorld::save(const std::string& path) const {
  saveScene(sceneFromWorld(*world_, scene_), path);
}

std::string PythonWorld::sceneJson(const std::string& folder) const {
  return sceneToJson(sceneFromWorld(*world_, scene_), folder);
}

std::uint32_t PythonWorld::addBody(const TemplatePtr& t, const Vec3& position, const Quat& userOrientation,
                                   const Vec3& velocity, const Vec3& angularVelocity) {
  if (!position.allFinite() || !velocity.allFinite() || !angularVelocity.allFinite() ||
      !userOrientation.coeffs().allFinite())
    throw std::invalid_argument("add_body: position, orientation and velocities must be finite");
  if (position.cwiseAbs().maxCoeff() > 1e9)
    throw std::invalid_argument("add_body: a coordinate beyond 1e9 m");
  if (!(userOrientation.norm() > 0.0)) throw std::invalid_argument("add_body: the orientation is zero");
  BodyInit b;
  b.templateIndex = world_->addTemplate(t);
  b.position = position;
  // As a scene file's body: the user's rotation of the template as written, composed with the
  // template's principal rotation (docs/formats.md, "Conventions").
  b.orientation = unitQuaternion(userOrientation.normalized() * t->rotationFromInput.conjugate());
  b.velocity = velocity;
  b.angularVelocity = angularVelocity;
  return world_->addBody(b);
}

}  // namespace clumplab::python
