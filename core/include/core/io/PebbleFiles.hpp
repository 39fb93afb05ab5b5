#pragma once
// Pebble lists made by other tools (MClump mode 4, MercuryDPM rigid clumps, §3): plain `x y z r` text as
// written by the CLUMP library and LIGGGHTS multisphere templates, and MercuryDPM's MClump clump folders.
#include <optional>
#include <string>
#include <vector>

#include "core/base/Math.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/clump/Pebble.hpp"

namespace clumplab {

// One pebble a line, `x y z r` separated by spaces, tabs, commas or semicolons; blank lines and
// lines starting with '#', '%' or '//' are skipped. Throws InputError naming the file and line.
std::vector<Pebble> readPebbleText(const std::string& path);
std::vector<Pebble> parsePebbleText(const std::string& text, const std::string& file);

// A MercuryDPM clump folder as MClump writes it: `Clump/Clump.txt` (or `Clump.txt`), one pebble
// `x,y,z,r` a line, centred at the centre of mass; `Inertia/Mass.txt` (one number);
// `Inertia/TOI.txt` (the 3 x 3 tensor about the centre of mass, a row a line); `Inertia/PD.txt`
// (the principal directions, one a line). MClump's default density is 1, so mass and tensor are
// then per unit density.
struct MercuryClump {
  std::vector<Pebble> pebbles;
  std::optional<double> mass;               // [kg] (or per unit density)
  std::optional<Mat3> inertiaTensor;        // [kg m^2] about the centre of mass, pebbles' frame
  std::optional<Mat3> principalDirections;  // rows e1, e2, e3
};
MercuryClump readMercuryClumpFolder(const std::string& folder);

// The folder's given mass properties, mass and tensor multiplied by `densityFactor` (MClump's are
// per unit density by default; pass the material's density, or 1 to take them as written). The
// volume is the mass at density 1. Throws std::invalid_argument if the folder has none.
MassProperties mercuryMassProperties(const MercuryClump& clump, double densityFactor);

// Whether `path` is a folder holding a MercuryDPM clump (Clump/Clump.txt or Clump.txt).
bool isMercuryClumpFolder(const std::string& path);

}  // namespace clumplab
