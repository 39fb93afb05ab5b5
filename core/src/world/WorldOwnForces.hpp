#pragma once
// What the integrators with forces of their own (cim and rk4, Meland et al., Cluster integration method)
// cannot do, refused with a clear message before a world takes such a setting (World's constructor and
// setters).
#include "core/collision/ContactModel.hpp"
#include "core/forces/Fields.hpp"
#include "core/model/IntegratorKind.hpp"

namespace clumplab {

struct WorldSettings;

// Throws std::invalid_argument naming the integrator and what to change when `kind` is cim or rk4
// and the settings use electric or magnetic fields, the 2D plane, gyroscopic = false, or a contact law with a
// tangential spring (ContactLaw.hpp), or when `anyPointProperties` (charges, dipoles, point masses).
void requireOwnForcesSupport(IntegratorKind kind, const WorldSettings& settings, const ContactModel& contact,
                             bool anyPointProperties = false);
// The same for one body's charges, dipoles and point-mass flag.
void requireOwnForcesSupport(IntegratorKind kind, const PointProperties& point);

}  // namespace clumplab
