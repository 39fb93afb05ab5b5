#pragma once
// Which sphere stands for a clump in PaLa's polyspheres / spheres switch (Mutze, Polyspherical grains, §1
// (ii)).
namespace clumplab {

enum class SphereKind {
  Bounding,  // radius: the clump's bounding radius about its centre of mass (Mutze, Polyspherical grains, eq.
             // 32)
  VolumeEquivalent,  // radius (3V / 4 pi)^(1/3), V the clump's volume
};

}  // namespace clumplab
