#pragma once
// Polhodes in angular-momentum space, body frame (Landau & Lifshitz, Mechanics §37): torque-free,
// the body-frame angular momentum L stays on the sphere L1^2 + L2^2 + L3^2 = M^2 (eq. 37.6) and on
// the energy ellipsoid L1^2/I1 + L2^2/I2 + L3^2/I3 = 2E (eq. 37.5); a polhode is their
// intersection. With D = M^2 / 2E in [I1, I3], it circles axis 3 for D > I2 and axis 1 for
// D < I2; D = I2 gives the separatrix, two great circles crossing at +-axis 2. Plain math, no Qt.
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab::gui {

using Curve = std::vector<Vec3>;  // a closed polyline (the last point joins the first)

// Rotational energy E = L.I^-1.L / 2 [J] and |L| of a body-frame angular velocity [rad/s].
double rotationalEnergy(const Vec3& moments, const Vec3& omegaBody);
double angularMomentumMagnitude(const Vec3& moments, const Vec3& omegaBody);

// The polhode through energy `energy` [J] on the sphere |L| = `momentum` [kg m^2/s] for principal
// moments `moments` (ascending, distinct or not): its two closed branches (the +- sides of the
// circled axis), `samples` points each; none if E and M admit no motion (D outside [I1, I3]).
std::vector<Curve> polhode(const Vec3& moments, double momentum, double energy, int samples = 256);

// The separatrix on the sphere |L| = `momentum`: the polhode of D = I2 (L&L §37), as its two great
// circles (each through +-axis 2). None unless I1 < I2 < I3.
std::vector<Curve> separatrix(const Vec3& moments, double momentum, int samples = 256);

// The polhode of a state: through its own E and M.
std::vector<Curve> polhodeOf(const Vec3& moments, const Vec3& omegaBody, int samples = 256);

// The flip interval of omega_k (k = `axis`, 0..2) for a body-frame angular velocity: T/2 from
// predictFlips (L&L §37) when omega_k changes sign on this polhode, infinity when the polhode
// circles axis k itself (a stable spin about axis 1 or 3 never reverses omega_k).
double predictedFlipInterval(const Vec3& moments, const Vec3& omegaBody, int axis);

}  // namespace clumplab::gui
