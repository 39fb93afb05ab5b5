#pragma once
// The scene parameters a user edits while the simulation runs (the Parameters panel): what they
// are, how they are read from a loaded scene, and how the simulation thread applies them.
#include "core/collision/ContactModel.hpp"
#include "core/integrate/Integrator.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/WorldModel.hpp"

namespace clumplab {
class World;
}  // namespace clumplab

namespace clumplab::sim {

struct SceneParameters {
  double timeStep = 1e-5;  // [s]
  IntegratorKind integrator = IntegratorKind::Leapfrog;
  int eulerIterations = 4;               // leapfrog's iterative Euler solve (MercuryDPM rigid clumps, §2.6)
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // [m/s^2]
  ContactModel contact;
  double linearDamping = 0.0;   // [1/s], global
  double angularDamping = 0.0;  // [1/s], global
  bool gyroscopic = true;       // the omega x I omega term (off to show what it does: Dzhanibekov mode)
  FieldSettings fields;  // uniform E and B, Newton's G, softening (Mutze, Polyspherical grains, §1 (v), (vi))

  static SceneParameters fromScene(const Scene& scene);
  // Writes the parameters into a scene (so a reset or a save keeps them).
  void writeTo(Scene& scene) const;
  // Applies every parameter that differs from the world's current one, at the next step.
  void applyTo(World& world) const;

  bool operator==(const SceneParameters& other) const = default;
};

}  // namespace clumplab::sim
