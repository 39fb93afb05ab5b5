#pragma once
// What a periodic box (Meland et al., Cluster integration method) asks of the rest of a world, in one place
// for World (which throws std::invalid_argument) and the scene loader (which names the file and the
// "periodic" key).
//
// The contact stage lets two bodies meet through one image only: the one nearest by the minimum
// image of their centres of mass (ContactSolver.hpp). That is exact when no body can reach another
// through two images at once, and the neighbour list's pebble-level minimum image agrees with it
// when every periodic length is at least twice the largest pair range of centres,
// L >= 2 (2 rho_max + skin), rho_max the largest bounding radius of a template (as the cluster
// method's neighbour list asks: core/cim/ParticleNeighbors.cpp). Walls must be uniform along every
// periodic axis (a plane parallel to it: a floor with x and y periodic) and the 2D mode's plane
// must contain every periodic axis.
#include <string>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/base/PlaneConstraint.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

// The smallest periodic length [m] for bodies of bounding radius up to `largestBodyRadius` [m]
// with the Verlet skin `skin` [m].
double minimumPeriodicLength(double largestBodyRadius, double skin);

// The Verlet skin a world uses [m]: `skinSetting` when positive, else 0.4 x the smallest pebble
// radius of `templates` (1e-4 m without any).
double resolvedSkin(double skinSetting, const std::vector<TemplatePtr>& templates);

// "" when `box` suits templates of this size, else the problem, naming the axis, the length it
// needs and the template that needs it.
std::string periodicLengthProblem(const PeriodicBox& box, const std::vector<TemplatePtr>& templates,
                                  double skin);
// "" when wall `index` is uniform along every periodic axis, else why it is not.
std::string periodicWallProblem(const PeriodicBox& box, const Wall& wall, std::size_t index);
// "" when the 2D mode's plane (if enabled) contains every periodic axis, else why not.
std::string periodicPlaneProblem(const PeriodicBox& box, const PlaneConstraint& plane);
// The first of the three problems above for a whole world, or "".
std::string periodicProblem(const PeriodicBox& box, const std::vector<TemplatePtr>& templates,
                            const std::vector<Wall>& walls, const PlaneConstraint& plane, double skin);

}  // namespace clumplab
