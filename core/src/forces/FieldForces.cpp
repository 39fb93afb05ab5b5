#include <cmath>
#include <cstddef>
#include <vector>

#include "core/clump/BodyState.hpp"
#include "core/forces/Fields.hpp"

namespace clumplab {

namespace {

// One body's sources in the world frame.
struct Source {
  std::size_t body;
  double charge;  // [C]
  Vec3 p;         // electric dipole [C m]
  Vec3 m;         // magnetic dipole [A m^2]
  double mass;    // [kg] if a point mass, else 0
};

std::vector<Source> sources(const BodyState& bodies) {
  std::vector<Source> out;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const PointProperties& pp = bodies.point[b];
    if (!pp.any()) continue;
    const Quat& q = bodies.orientation[b];
    out.push_back(
        {b, pp.charge, q * pp.electricDipole, q * pp.magneticDipole, pp.pointMass ? bodies.mass[b] : 0.0});
  }
  return out;
}

// The softened kernel phi(r) = 1/s, s^2 = r^2 + eps^2, and its derivatives (Plummer softening; for
// eps = 0 the textbook point formulas, e.g. Jackson, Classical Electrodynamics, eq. 4.24-4.26 and
// 5.56, 5.72): D1 = grad phi = -r/s^3, D2 u = (grad grad phi) u = 3 r (r.u)/s^5 - u/s^3 and
// D3[u, w] = (grad grad grad phi)[u, w, .] = -15 (u.r)(w.r) r/s^7 + 3 ((u.w) r + u (w.r) + w (u.r))/s^5.
struct Kernel {
  Vec3 r;
  double inv1, inv3, inv5, inv7;  // 1/s, 1/s^3, 1/s^5, 1/s^7

  Kernel(const Vec3& rIn, double eps) : r(rIn) {
    const double inv2 = 1.0 / (r.squaredNorm() + eps * eps);
    inv1 = std::sqrt(inv2);
    inv3 = inv1 * inv2;
    inv5 = inv3 * inv2;
    inv7 = inv5 * inv2;
  }
  Vec3 d1() const { return -inv3 * r; }
  Vec3 d2(const Vec3& u) const { return 3.0 * inv5 * r.dot(u) * r - inv3 * u; }
  Vec3 d3(const Vec3& u, const Vec3& w) const {
    const double ur = u.dot(r), wr = w.dot(r);
    return -15.0 * inv7 * ur * wr * r + 3.0 * inv5 * (u.dot(w) * r + wr * u + ur * w);
  }
};

struct PairResult {
  Vec3 forceOnI = Vec3::Zero();   // [N]; body j gets the opposite
  Vec3 torqueOnI = Vec3::Zero();  // [N m] about i's centre of mass
  Vec3 torqueOnJ = Vec3::Zero();
  double energy = 0.0;  // [J]
};

// Bodies i and j with r = x_i - x_j. Potential of j at x: V_j = k (q_j phi - p_j.D1), so the energy
// of i in it is U = q_i V_j + p_i.grad V_j (the dipole energy -p.E with E = -grad V):
//   U_e = k (q_i q_j phi - q_i p_j.D1 + q_j p_i.D1 - p_i.D2 p_j),
// the magnetic dipole-dipole energy U_m = -k_m m_i.D2 m_j (Jackson eq. 5.72 for eps = 0) and the
// gravitational U_g = -G M_i M_j phi. Force on i: F_i = -dU/dr; torque on a dipole: d x (-dU/dd)
// (d x E, m x B with the partner's field), so force and torque are exact derivatives of U.
PairResult pair(const Source& i, const Source& j, const Kernel& k, double gravitation) {
  PairResult out;
  const Vec3 d1 = k.d1();
  const bool electric = (i.charge != 0.0 || i.p != Vec3::Zero()) && (j.charge != 0.0 || j.p != Vec3::Zero());
  if (electric) {
    const Vec3 d2pj = k.d2(j.p), d2pi = k.d2(i.p);
    out.energy += kCoulomb * (i.charge * j.charge * k.inv1 - i.charge * j.p.dot(d1) + j.charge * i.p.dot(d1) -
                              i.p.dot(d2pj));
    out.forceOnI +=
        kCoulomb * (-i.charge * j.charge * d1 + i.charge * d2pj - j.charge * d2pi + k.d3(i.p, j.p));
    const Vec3 fieldAtI = kCoulomb * (d2pj - j.charge * d1);  // E_j(x_i)
    const Vec3 fieldAtJ = kCoulomb * (d2pi + i.charge * d1);  // E_i(x_j): D1 is odd, D2 even in r
    out.torqueOnI += i.p.cross(fieldAtI);
    out.torqueOnJ += j.p.cross(fieldAtJ);
  }
  if (i.m != Vec3::Zero() && j.m != Vec3::Zero()) {
    const Vec3 d2mj = k.d2(j.m);
    out.energy -= kMagnetic * i.m.dot(d2mj);
    out.forceOnI += kMagnetic * k.d3(i.m, j.m);
    out.torqueOnI += i.m.cross(kMagnetic * d2mj);       // m_i x B_j(x_i)
    out.torqueOnJ += j.m.cross(kMagnetic * k.d2(i.m));  // m_j x B_i(x_j)
  }
  if (i.mass > 0.0 && j.mass > 0.0) {
    out.energy -= gravitation * i.mass * j.mass * k.inv1;
    out.forceOnI += gravitation * i.mass * j.mass * d1;  // attractive: d1 = -r/s^3
  }
  return out;
}

}  // namespace

bool hasPointProperties(const BodyState& bodies) {
  for (const PointProperties& p : bodies.point) {
    if (p.any()) return true;
  }
  return false;
}

void addFieldForces(const FieldSettings& fields, double softening, const BodyState& bodies,
                    std::vector<Vec3>& force, std::vector<Vec3>& torque, const PeriodicBox& periodic) {
  const std::vector<Source> s = sources(bodies);
  for (const Source& a : s) {
    // Uniform fields: F = q E (no force on dipoles in a uniform field), T = p x E + m x B.
    force[a.body] += a.charge * fields.electric;
    torque[a.body] += a.p.cross(fields.electric) + a.m.cross(fields.magnetic);
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      const Kernel k(periodic.minimumImage(bodies.position[s[i].body] - bodies.position[s[j].body]),
                     softening);
      const PairResult r = pair(s[i], s[j], k, fields.gravitationalConstant);
      force[s[i].body] += r.forceOnI;
      force[s[j].body] -= r.forceOnI;
      torque[s[i].body] += r.torqueOnI;
      torque[s[j].body] += r.torqueOnJ;
    }
  }
}

void addLorentzForces(const Vec3& magnetic, const BodyState& bodies, std::vector<Vec3>& force) {
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const double q = bodies.point[b].charge;
    if (q != 0.0) force[b] += q * bodies.velocity[b].cross(magnetic);
  }
}

double fieldPotentialEnergy(const FieldSettings& fields, double softening, const BodyState& bodies,
                            const PeriodicBox& periodic) {
  const std::vector<Source> s = sources(bodies);
  double energy = 0.0;
  for (const Source& a : s) {
    // -q E.x (potential phi = -E.x), -p.E, -m.B.
    energy -= a.charge * fields.electric.dot(bodies.position[a.body]) + a.p.dot(fields.electric) +
              a.m.dot(fields.magnetic);
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      const Kernel k(periodic.minimumImage(bodies.position[s[i].body] - bodies.position[s[j].body]),
                     softening);
      energy += pair(s[i], s[j], k, fields.gravitationalConstant).energy;
    }
  }
  return energy;
}

}  // namespace clumplab
