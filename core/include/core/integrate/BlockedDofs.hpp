#pragma once
// Blocked degrees of freedom of a body (after Woo's blocked DOFs): any of "x y z X Y Z",
// lowercase the translations along the world axes, uppercase the rotations about them. A blocked
// translation keeps that coordinate of the centre of mass fixed (its velocity component stays zero,
// the force component is taken by the constraint); a blocked rotation keeps that world component
// of the angular velocity zero, the constraint taking the torque about that axis. So all three
// blocked keep the orientation; two blocked leave a spin about the third world axis a with the
// moment I_aa = e_a.I.e_a (exact, as the 2D mode's spin); one blocked leaves the angular velocity in
// the plane of the two free axes F, where the world components L_F of the angular momentum change
// only by the torque T_F while I_F(q) w_F = L_F (BlockedMotion.hpp). The constraint forces and
// torques do no work (w.e_c = 0), so energy bookkeeping holds; momentum is not conserved for blocked
// bodies (the constraint takes impulses).
#include <cstdint>
#include <string>
#include <string_view>

namespace clumplab {

namespace blocked_dofs {
inline constexpr std::uint8_t kTranslations = 0x07;  // bits 0-2: x, y, z
inline constexpr std::uint8_t kRotations = 0x38;     // bits 3-5: X, Y, Z
}  // namespace blocked_dofs

// The mask of a written set ("xyz", "XY", ""); on a character other than x y z X Y Z, or one named
// twice, returns false and says why in `problem`.
bool parseBlockedDofs(std::string_view text, std::uint8_t& mask, std::string& problem);
// The written form of a mask, in the order x y z X Y Z.
std::string blockedDofsText(std::uint8_t mask);
// The free rotation axes as bits 0-2 (X, Y, Z): 0b111 when no rotation is blocked.
unsigned freeRotationAxes(std::uint8_t mask);

}  // namespace clumplab
