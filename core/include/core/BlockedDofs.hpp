#pragma once
// Blocked degrees of freedom of a body (issue 9, after Woo's blocked DOFs): any of "x y z X Y Z",
// lowercase the translations along the world axes, uppercase the rotations about them. A blocked
// translation keeps that coordinate of the centre of mass fixed (its velocity component stays zero,
// the force component is taken by the constraint); blocked rotations leave either no free rotation
// (all three blocked: the orientation stays) or one free world axis a, about which the body turns
// with the moment of inertia I_aa = e_a.I.e_a (exact, as the 2D mode's spin). One blocked rotation
// alone (two free axes) is refused. The constraint forces do no work, so energy bookkeeping holds;
// momentum is not conserved for blocked bodies (the constraint takes impulses).
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
// Why a mask cannot be integrated ("" when it can): one blocked rotation with two free ones.
std::string blockedDofsProblem(std::uint8_t mask);
// The one free rotation axis (0, 1, 2) when exactly two rotations are blocked, else -1.
int freeRotationAxis(std::uint8_t mask);

}  // namespace clumplab
