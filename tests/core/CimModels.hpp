#pragma once
// Particle systems for the cluster-integration tests: elastic spheres and rigid dimers (two
// overlapping spheres) with a linear repulsive spring, in a box periodic on some axes with plane
// walls on the others, and brute-force references (all pairs) for distances, forces and energy.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/base/OrderedDraws.hpp"
#include "core/cim/ParticleModel.hpp"

namespace clumplab::test {

using cim::ParticleModel;
using cim::ParticleState;
using cim::RigidBodySet;

// Spheres of a body in the lab: centres and radii. A "sphere" particle has one at its centre; a
// dimer two of radius r at +-offset along its principal axis 3.
struct Shape {
  double radius = 1e-3;  // [m]
  double offset = 0.0;   // [m] half the distance of a dimer's sphere centres (0: one sphere)
  int sphereCount() const { return offset > 0.0 ? 2 : 1; }
  Vec3 centre(const Vec3& position, const Quat& q, int k) const {
    if (offset == 0.0) return position;
    return position + (k == 0 ? offset : -offset) * (q * Vec3::UnitZ());
  }
  double reach() const { return offset + radius; }
};

// A plane wall y = level (normal +y) or y = level (normal -y).
struct PlaneWall {
  double level = 0.0;
  double normalY = 1.0;  // +1: particles above, -1: particles below
};

struct SpringSystem {
  std::vector<Shape> shapes;
  std::vector<PlaneWall> walls;
  PeriodicBox box;
  double stiffness = 1e4;  // [N/m]
  double density = 2700.0;

  double mass(std::size_t i) const {
    const Shape& s = shapes[i];
    return density * s.sphereCount() * 4.0 / 3.0 * M_PI * std::pow(s.radius, 3);
  }
  // Inertia of the sphere(s) about the centre of mass (overlap ignored: any rigid body will do).
  Vec3 moments(std::size_t i) const {
    const Shape& s = shapes[i];
    const double m1 = mass(i) / s.sphereCount();
    const double own = 0.4 * m1 * s.radius * s.radius;
    const double n = s.sphereCount();
    const double lateral = n * own + n * m1 * s.offset * s.offset;
    return Vec3(lateral, s.offset > 0.0 ? 1.3 * lateral : lateral, n * own);  // dimers: asymmetric
  }

  // Surface distance of i and j given the minimum-image separation of their centres.
  double distance(std::size_t i, std::size_t j, const Vec3& separation, const Quat& qi,
                  const Quat& qj) const {
    double best = std::numeric_limits<double>::infinity();
    for (int a = 0; a < shapes[i].sphereCount(); ++a) {
      for (int b = 0; b < shapes[j].sphereCount(); ++b) {
        const Vec3 ci = shapes[i].centre(Vec3::Zero(), qi, a);
        const Vec3 cj = shapes[j].centre(separation, qj, b);
        best = std::min(best, (cj - ci).norm() - shapes[i].radius - shapes[j].radius);
      }
    }
    return best;
  }
  double wallDistance(std::size_t i, std::size_t w, const ParticleState& s) const {
    double best = std::numeric_limits<double>::infinity();
    for (int a = 0; a < shapes[i].sphereCount(); ++a) {
      const Vec3 c = shapes[i].centre(s.position, s.orientation, a);
      best = std::min(best, walls[w].normalY * (c.y() - walls[w].level) - shapes[i].radius);
    }
    return best;
  }
  cim::PairForce pairForce(std::size_t i, std::size_t j, const ParticleState& si,
                           const ParticleState& sj) const {
    cim::PairForce f;
    for (int a = 0; a < shapes[i].sphereCount(); ++a) {
      for (int b = 0; b < shapes[j].sphereCount(); ++b) {
        const Vec3 ci = shapes[i].centre(si.position, si.orientation, a);
        const Vec3 cj = shapes[j].centre(sj.position, sj.orientation, b);
        const Vec3 d = cj - ci;
        const double dist = d.norm();
        const double overlap = shapes[i].radius + shapes[j].radius - dist;
        if (overlap <= 0.0) continue;
        const Vec3 onJ = (stiffness * overlap / dist) * d;
        f.forceOnJ += onJ;
        f.torqueOnJ += (cj - sj.position).cross(onJ);
        f.forceOnI -= onJ;
        f.torqueOnI -= (ci - si.position).cross(onJ);
      }
    }
    return f;
  }
  cim::WallForce wallForce(std::size_t i, std::size_t w, const ParticleState& s) const {
    cim::WallForce f;
    for (int a = 0; a < shapes[i].sphereCount(); ++a) {
      const Vec3 c = shapes[i].centre(s.position, s.orientation, a);
      const double overlap = shapes[i].radius - walls[w].normalY * (c.y() - walls[w].level);
      if (overlap <= 0.0) continue;
      const Vec3 force = Vec3(0.0, walls[w].normalY * stiffness * overlap, 0.0);
      f.force += force;
      f.torque += (c - s.position).cross(force);
    }
    return f;
  }

  ParticleModel model(const Vec3& gravity = Vec3::Zero()) const {
    ParticleModel m;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      m.inertia.push_back({mass(i), moments(i)});
      m.reach.push_back(shapes[i].reach());
    }
    m.gravity = gravity;
    m.box = box;
    m.wallCount = walls.size();
    m.surfaceDistance = [this](std::uint32_t i, std::uint32_t j, const Vec3& sep, const Quat& qi,
                               const Quat& qj) { return distance(i, j, sep, qi, qj); };
    m.pairForce = [this](std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                         cim::ContactMemoryView) { return pairForce(i, j, si, sj); };
    m.wallDistance = [this](std::uint32_t i, std::uint32_t w, const ParticleState& s) {
      return wallDistance(i, w, s);
    };
    m.wallForce = [this](std::uint32_t i, std::uint32_t w, const ParticleState& s, cim::ContactMemoryView) {
      return wallForce(i, w, s);
    };
    return m;
  }

  // All pairs (minimum image) and all walls: forces of the whole system, for references.
  void allForces(const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques) const {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const ParticleState si = s.particle(i);
      for (std::size_t j = i + 1; j < s.size(); ++j) {
        const Vec3 separation = box.minimumImage(s.position[j] - si.position);
        const double reach = shapes[i].reach() + shapes[j].reach();
        if (separation.squaredNorm() >= reach * reach) continue;  // cannot touch
        ParticleState sj = s.particle(j);
        sj.position = si.position + separation;
        const cim::PairForce f = pairForce(i, j, si, sj);
        forces[i] += f.forceOnI;
        torques[i] += f.torqueOnI;
        forces[j] += f.forceOnJ;
        torques[j] += f.torqueOnJ;
      }
      for (std::size_t w = 0; w < walls.size(); ++w) {
        const cim::WallForce f = wallForce(i, w, si);
        forces[i] += f.force;
        torques[i] += f.torque;
      }
    }
  }

  // Kinetic plus spring energy (and -m g.x for gravity) [J].
  double energy(const RigidBodySet& s, const Vec3& gravity = Vec3::Zero()) const {
    double e = 0.0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const Vec3& spin = s.bodyAngularVelocity[i];
      e += 0.5 * mass(i) * s.velocity[i].squaredNorm() + 0.5 * spin.dot(moments(i).cwiseProduct(spin));
      e -= mass(i) * gravity.dot(s.position[i]);
      const ParticleState si = s.particle(i);
      for (std::size_t j = i + 1; j < s.size(); ++j) {
        for (int a = 0; a < shapes[i].sphereCount(); ++a) {
          for (int b = 0; b < shapes[j].sphereCount(); ++b) {
            const Vec3 ci = shapes[i].centre(si.position, si.orientation, a);
            const Vec3 sep = box.minimumImage(s.position[j] - s.position[i]);
            const Vec3 cj = shapes[j].centre(si.position + sep, s.orientation[j], b);
            const double overlap = shapes[i].radius + shapes[j].radius - (cj - ci).norm();
            if (overlap > 0.0) e += 0.5 * stiffness * overlap * overlap;
          }
        }
      }
      for (std::size_t w = 0; w < walls.size(); ++w) {
        for (int a = 0; a < shapes[i].sphereCount(); ++a) {
          const Vec3 c = shapes[i].centre(si.position, si.orientation, a);
          const double overlap = shapes[i].radius - walls[w].normalY * (c.y() - walls[w].level);
          if (overlap > 0.0) e += 0.5 * stiffness * overlap * overlap;
        }
      }
    }
    return e;
  }
};

// n particles placed at random without overlap (rejection) in the box [0, L)^3 (walls, if any, at
// y = 0 and y = L), random velocities of typical speed `speed` [m/s] and random spins of typical
// rate `spin` [rad/s]. The random engine is seeded: the same configuration every run.
inline RigidBodySet randomPlacement(const SpringSystem& sys, double length, double speed, double spin,
                                    unsigned seed, double minGap = 0.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  RigidBodySet s;
  for (std::size_t i = 0; i < sys.shapes.size(); ++i) {
    for (int attempt = 0; attempt < 100000; ++attempt) {
      const double margin = sys.box.periodic[1] ? 0.0 : sys.shapes[i].reach() + minGap;
      const double xz = length * uniform(rng);  // last first: gcc's order of the former Vec3(...)
      const double xy = margin + (length - 2.0 * margin) * uniform(rng);
      const Vec3 x(length * uniform(rng), xy, xz);
      const Quat q = Quat(drawVector4LastFirst([&] { return normal(rng); }).normalized());
      bool clear = true;
      for (std::size_t j = 0; j < s.size() && clear; ++j) {
        clear = sys.distance(j, i, sys.box.minimumImage(x - s.position[j]), s.orientation[j], q) > minGap;
      }
      if (!clear) continue;
      s.add({x, speed * drawVec3LastFirst([&] { return normal(rng); }) / std::sqrt(3.0), q,
             spin * drawVec3LastFirst([&] { return normal(rng); }) / std::sqrt(3.0)});
      break;
    }
  }
  return s;
}

}  // namespace clumplab::test
