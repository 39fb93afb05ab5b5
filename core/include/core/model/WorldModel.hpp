#pragma once
// What a scene file defines and a run does not change by itself: the settings, the contact model,
// the walls and the clump templates (MuJoCo's mjModel in spirit). The user's edits between steps
// change its EditableModel part through World::setModel, which validates them.
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/base/PlaneConstraint.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/forces/Fields.hpp"
#include "core/model/CimSettings.hpp"
#include "core/model/IntegratorKind.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

struct WorldSettings {
  double timeStep = 1e-5;                // [s]
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // [m/s^2], applied at centres of mass (Woo, clumps)
  IntegratorKind integrator = IntegratorKind::Leapfrog;
  int eulerIterations = 4;  // leapfrog's iterative Euler solve (MercuryDPM rigid clumps, §2.6)
  int threads = 1;          // force-loop threads; results do not depend on it
  double skin = 0.0;        // Verlet skin [m]; 0 picks 0.4 x smallest pebble radius
  bool gyroscopic = true;   // the omega x I omega term (off only for lessons)
  int rotorSubsteps = 4;    // splitting: NO_SQUISH free-rotor sub-steps per step
  // Global damping (0: none): a force -linearDamping m v on every body [1/s], and a torque
  // -angularDamping I omega with I the world inertia tensor R diag(I1, I2, I3) R^T [1/s]. Their work
  // counts as dissipated energy.
  double linearDamping = 0.0;
  double angularDamping = 0.0;
  // Cundall's local (non-viscous) damping lambda in [0, 1) (0: none), as Woo's leapfrog and Yade's
  // NewtonIntegrator apply it: each world component of a body's total force is scaled by
  // 1 - lambda sign(F_i v_i), of its torque by 1 - lambda sign(T_i omega_i) (BodyForces.hpp). Its
  // work counts as dissipated energy.
  double localDamping = 0.0;
  FieldSettings fields;   // uniform E and B, G, softening (gravity is `gravity` above)
  PlaneConstraint plane;  // the 2D mode (off: 3D)
  PeriodicBox
      periodic;  // periodic boundaries on any subset of x, y, z (cluster integration method; none: all off)
  CimSettings cim;  // the cim and rk4 integrators: buffer, RKF tolerances and steps
};

struct WorldModel {
  WorldSettings settings;
  ContactModel contact;
  std::vector<Wall> walls;  // a box is six planes: -x, +x, -y, +y, -z, +z faces
  std::vector<TemplatePtr> templates;
};

// The part of the model a user may change while the world runs (World::setModel; the Parameters
// panel, Python, lessons), named once. The rest (threads, skin, the 2D plane, the periodic box,
// walls, templates) is fixed when the world is made.
struct EditableModel {
  double timeStep;  // [s]
  IntegratorKind integrator;
  int eulerIterations;    // leapfrog's iterative Euler solve (MercuryDPM rigid clumps, §2.6)
  int rotorSubsteps;      // splitting's free-rotor sub-steps
  Vec3 gravity;           // [m/s^2]
  double linearDamping;   // [1/s], global
  double angularDamping;  // [1/s], global
  double localDamping;    // Cundall's local damping lambda, in [0, 1)
  bool gyroscopic;        // the omega x I omega term (off to show what it does)
  FieldSettings fields;   // uniform E and B, G, softening
  CimSettings cim;        // the cim and rk4 integrators' settings
  ContactModel contact;

  // The defaults are WorldSettings{}'s and ContactModel{}'s (written there once).
  EditableModel();
  EditableModel(const WorldSettings& settings, const ContactModel& contactModel);
  static EditableModel of(const WorldSettings& settings, const ContactModel& contactModel) {
    return {settings, contactModel};
  }
  // Writes these fields into `settings` and `contact`, leaving the rest of the settings as they are.
  void writeTo(WorldSettings& settings, ContactModel& contactModel) const;
  bool operator==(const EditableModel& other) const = default;
};

}  // namespace clumplab
