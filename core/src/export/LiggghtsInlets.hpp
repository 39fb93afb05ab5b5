#pragma once
// Inlets (Inlet.hpp) in the LIGGGHTS deck (LiggghtsDeck.cpp). Each inlet becomes
//   region inlet<i> block ... | cylinder x|y|z c1 c2 radius lo hi   (axis-aligned cylinders only)
//   fix inlet<i>_pdd all particledistribution/discrete/numberbased seed n tpl<k> w_k ...  (ClumpLab's
//       weights are by count, as numberbased's; normalised to sum 1)
//   fix inlet<i> all insert/rate/region seed s distributiontemplate inlet<i>_pdd nparticles N
//       massrate mass_rate insert_every E start S overlapcheck yes all_in yes maxattempt attempts
//       vel constant v | vel uniform v a a a  orientation random omega constant 0 0 0 region inlet<i>
// N is the body count ClumpLab reaches: max_count, or with max_mass the count floor(max_mass / m)
// for one body mass m (the mean mass by count for mixed templates: the count is then only expected,
// a warning). E is the steps one mean body takes at the rate (one body per insertion on average),
// and S = (start + E dt) / dt, when ClumpLab's first body is due. What differs is a warning: where
// and how each body is oriented (LIGGGHTS's own random numbers), so the bodies differ; the batches
// of E steps; a velocity spread uniform in a cube instead of a ball (of the same variance); the
// region test (whole pebbles inside in LIGGGHTS, pebble centres here).
#include <functional>
#include <string>
#include <vector>

#include "core/export/WallSurfaces.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::exporting {

struct LiggghtsInlets {
  std::vector<std::string> lines;  // regions, distributions and insertion fixes
  std::vector<std::string> warnings;
  std::vector<std::uint32_t> templates;  // world template indices the inlets insert
  Box3 regions;                          // the regions' bounding box [m]
};

// Throws InputError for what LIGGGHTS cannot express (oblique cylinders, a running inlet).
// `templateFix(k)` is the deck's particletemplate fix ID of world template k; `nextSeed` gives a
// prime seed for each fix.
LiggghtsInlets mapLiggghtsInlets(const Scene& scene, const World& world,
                                 const std::function<std::string(std::uint32_t)>& templateFix,
                                 const std::function<long long()>& nextSeed);

// The world template indices the scene's inlets insert (before the template fixes are written).
std::vector<std::uint32_t> inletTemplates(const Scene& scene);

}  // namespace clumplab::exporting
