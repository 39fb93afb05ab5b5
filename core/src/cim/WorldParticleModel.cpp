#include "core/cim/WorldParticleModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/base/MemoryBytes.hpp"
#include "core/cim/ClusterLifetime.hpp"
#include "core/clump/BodyState.hpp"
#include "core/clump/PlacedPebble.hpp"
#include "core/collision/ContactLaw.hpp"
#include "core/forces/ExternalLoad.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

namespace {

const std::vector<Pebble>& pebblesOf(const WorldParticles& w, std::uint32_t body) {
  return w.templates[w.templateOf[body]]->pebbles;
}

// The pebbles of body `body` at x, q that come within `range` of the point `near` (a partner's
// centre; range its reach), placed in the lab, into a per-thread scratch (each placed once per call,
// not once per partner pebble).
const std::vector<PlacedPebble>& placeNear(const WorldParticles& w, std::uint32_t body, const Vec3& x,
                                           const Quat& q, const Vec3& near, double range,
                                           std::vector<PlacedPebble>& out) {
  const Mat3 r = q.toRotationMatrix();
  out.clear();
  const std::vector<Pebble>& pebbles = pebblesOf(w, body);
  for (std::uint32_t k = 0; k < pebbles.size(); ++k) {
    const PlacedPebble p = placePebble(pebbles[k], x, r, k);
    const double reach = p.reach() + range;
    if ((p.center - near).squaredNorm() < reach * reach) out.push_back(p);
  }
  return out;
}

// visit(a, b, touch) for every touching pebble pair of bodies i (at xi, qi) and j (at xj, qj).
template <class Visit>
void forEachTouch(const WorldParticles& w, std::uint32_t i, std::uint32_t j, const Vec3& xi, const Quat& qi,
                  const Vec3& xj, const Quat& qj, Visit&& visit) {
  thread_local std::vector<PlacedPebble> nearJ, nearI;
  // Only the pebbles of each that reach into the other's bounding sphere can touch.
  const std::vector<PlacedPebble>& as = placeNear(w, i, xi, qi, xj, w.reach[j], nearI);
  if (as.empty()) return;
  const std::vector<PlacedPebble>& bs = placeNear(w, j, xj, qj, xi, w.reach[i], nearJ);
  ContactTouch touch;
  for (const PlacedPebble& a : as) {
    for (const PlacedPebble& b : bs) {
      const double range = a.reach() + b.reach();
      if ((a.center - b.center).squaredNorm() >= range * range) continue;
      Vec3 pa, pb;
      corePoints(a, b, pa, pb);
      if (touchSpheres(pa, a.radius, pb, b.radius, touch)) visit(a, b, touch);
    }
  }
}

// visit(pebble, end, touch) for every pebble end of body i touching wall `wall`: spheres by their centre
// (end 0), spherocylinders by each shaft end (0 at -l/2, 1 at +l/2; ContactSolver: one hemisphere, both
// when lying flat).
template <class Visit>
void forEachWallTouch(const WorldParticles& w, std::uint32_t i, const Wall& wall, const Vec3& x,
                      const Quat& q, Visit&& visit) {
  const Mat3 r = q.toRotationMatrix();
  ContactTouch touch;
  const std::vector<Pebble>& pebbles = pebblesOf(w, i);
  for (std::uint32_t k = 0; k < pebbles.size(); ++k) {
    const PlacedPebble p = placePebble(pebbles[k], x, r, k);
    if (p.halfLength == 0.0) {
      if (touchWall(wall, p.center, p.radius, p.center, touch)) visit(p, 0u, touch);
      continue;
    }
    for (const std::uint32_t end : {0u, 1u}) {
      const double shift = end == 0 ? -p.halfLength : p.halfLength;
      if (touchWall(wall, p.center + shift * p.axis, p.radius, p.center, touch)) visit(p, end, touch);
    }
  }
}

// What the memory `memory` (of the contacts' owner) holds for the contact (partner, first, second): the
// largest overlap of Mutze's law [m], 0 for a new contact.
double remembered(ContactMemoryView memory, std::uint32_t partner, std::uint32_t first,
                  std::uint32_t second) {
  for (const ContactMemoryEntry& e : memory) {
    if (e.partner == partner && e.first == first && e.second == second) return e.value;
  }
  return 0.0;
}

double surfaceDistance(const WorldParticles& w, std::uint32_t i, std::uint32_t j, const Vec3& separation,
                       const Quat& qi, const Quat& qj) {
  thread_local std::vector<PlacedPebble> as, bs;
  const Mat3 ri = qi.toRotationMatrix(), rj = qj.toRotationMatrix();
  as.clear();
  bs.clear();
  for (const Pebble& pebble : pebblesOf(w, i)) as.push_back(placePebble(pebble, Vec3::Zero(), ri));
  for (const Pebble& pebble : pebblesOf(w, j)) bs.push_back(placePebble(pebble, separation, rj));
  // A pair whose bounding spheres are farther apart than the best distance so far cannot beat it
  // (compared squared: no square roots for the pairs skipped).
  double best = std::numeric_limits<double>::infinity();
  const auto beyond = [&best](const Vec3& d, double reaches) {
    const double limit = best + reaches;
    return limit > 0.0 && d.squaredNorm() >= limit * limit;
  };
  for (const PlacedPebble& a : as) {
    if (beyond(a.center - separation, a.reach() + w.reach[j])) continue;
    for (const PlacedPebble& b : bs) {
      if (beyond(a.center - b.center, a.reach() + b.reach())) continue;
      Vec3 pa, pb;
      corePoints(a, b, pa, pb);
      best = std::min(best, (pb - pa).norm() - a.radius - b.radius);
    }
  }
  return best;
}

double wallDistance(const WorldParticles& w, std::uint32_t i, const Wall& wall, const ParticleState& s) {
  double best = std::numeric_limits<double>::infinity();
  if (wall.kind == Wall::Kind::Plane) {
    // In the body frame: the wall's normal turned back once, then per pebble a dot product (the
    // lowest point of a shaft is the end facing the wall, at -h |n . u| along n).
    const Vec3 n = s.orientation.conjugate() * wall.normal;
    const double base = (s.position - wall.point).dot(wall.normal);
    for (const Pebble& pebble : pebblesOf(w, i)) {
      best = std::min(best, base + n.dot(pebble.center) - pebble.halfLength * std::abs(n.dot(pebble.axis)) -
                                pebble.radius);
    }
    return best;
  }
  const Mat3 r = s.orientation.toRotationMatrix();
  for (const Pebble& pebble : pebblesOf(w, i)) {
    if (wall.passes(pebble.radius)) continue;  // a membrane lets it through
    const PlacedPebble p = placePebble(pebble, s.position, r);
    for (const double end : {-p.halfLength, p.halfLength}) {
      best = std::min(best, wall.clearance(p.center + end * p.axis) - p.radius);
    }
  }
  return best;
}

Vec3 pointVelocity(const ParticleState& s, const Vec3& point) {
  return s.velocity + s.angularVelocity.cross(point - s.position);
}

PairForce pairForce(const WorldParticles& w, std::uint32_t i, std::uint32_t j, const ParticleState& si,
                    const ParticleState& sj, ContactMemoryView memory) {
  PairForce f;
  const double massEff = w.mass[i] * w.mass[j] / (w.mass[i] + w.mass[j]);
  forEachTouch(w, i, j, si.position, si.orientation, sj.position, sj.orientation,
               [&](const PlacedPebble& a, const PlacedPebble& b, const ContactTouch& t) {
                 const Vec3 rel = pointVelocity(si, t.point) - pointVelocity(sj, t.point);
                 const double largest = memory.empty() ? 0.0 : remembered(memory, j, a.index, b.index);
                 const ContactLawForce law = historyFreeContactForce(w.contact, t, rel, massEff, largest);
                 f.forceOnI += law.force;
                 f.torqueOnI += (t.point - si.position).cross(law.force);
                 f.forceOnJ -= law.force;
                 f.torqueOnJ -= (t.point - sj.position).cross(law.force);
                 f.dissipation -= law.dissipative.dot(rel);
               });
  return f;
}

WallForce wallForce(const WorldParticles& w, std::uint32_t i, std::uint32_t wallIndex, const ParticleState& s,
                    ContactMemoryView memory) {
  WallForce f;
  forEachWallTouch(w, i, w.walls[wallIndex], s.position, s.orientation,
                   [&](const PlacedPebble& p, std::uint32_t end, const ContactTouch& t) {
                     const Vec3 v = pointVelocity(s, t.point);
                     const double largest =
                         memory.empty() ? 0.0 : remembered(memory, kWallPartner + wallIndex, p.index, end);
                     const ContactLawForce law = historyFreeContactForce(w.contact, t, v, w.mass[i], largest);
                     f.force += law.force;
                     f.torque += (t.point - s.position).cross(law.force);
                     f.dissipation -= law.dissipative.dot(v);
                   });
  return f;
}

// Mutze's law with delta < 1 (ContactLaw.hpp): the largest overlap of each touching contact of the pair,
// and of particle i with a wall, taken up to the state; the energy that dissipated [J].
double commitPair(const WorldParticles& w, std::uint32_t i, std::uint32_t j, const ParticleState& si,
                  const ParticleState& sj, ContactMemoryView previous,
                  std::vector<ContactMemoryEntry>& next) {
  double lost = 0.0;
  forEachTouch(w, i, j, si.position, si.orientation, sj.position, sj.orientation,
               [&](const PlacedPebble& a, const PlacedPebble& b, const ContactTouch& t) {
                 double largest = remembered(previous, j, a.index, b.index);
                 lost += commitLargestOverlap(w.contact, t, largest);
                 next.push_back({j, a.index, b.index, largest});
               });
  return lost;
}

double commitWall(const WorldParticles& w, std::uint32_t i, std::uint32_t wallIndex, const ParticleState& s,
                  ContactMemoryView previous, std::vector<ContactMemoryEntry>& next) {
  double lost = 0.0;
  forEachWallTouch(w, i, w.walls[wallIndex], s.position, s.orientation,
                   [&](const PlacedPebble& p, std::uint32_t end, const ContactTouch& t) {
                     double largest = remembered(previous, kWallPartner + wallIndex, p.index, end);
                     lost += commitLargestOverlap(w.contact, t, largest);
                     next.push_back({kWallPartner + wallIndex, p.index, end, largest});
                   });
  return lost;
}

BodyForce bodyForce(const WorldParticles& w, std::uint32_t i, const ParticleState& s) {
  BodyForce f;
  // Global damping (BodyForces.hpp): F = -g m v, T = -g_rot I w with I the lab tensor.
  if (w.linearDamping > 0.0) {
    f.force = -(w.linearDamping * w.mass[i]) * s.velocity;
    f.dissipation += w.linearDamping * w.mass[i] * s.velocity.squaredNorm();
  }
  if (w.angularDamping > 0.0) {
    const Vec3 spin =
        s.orientation * w.moments[i].cwiseProduct(s.orientation.conjugate() * s.angularVelocity);
    f.torque = -w.angularDamping * spin;
    f.dissipation += w.angularDamping * spin.dot(s.angularVelocity);
  }
  // A load at a point fixed in the lab, its torque about the centre where the body is now.
  if (i < w.loadOf.size() && w.loadOf[i] >= 0) {
    const auto k = static_cast<std::size_t>(w.loadOf[i]);
    // The nearest image of the point: a body wrapped into the periodic box keeps its lever arm.
    const Vec3 torque = w.box.minimumImage(w.loadPoint[k] - s.position).cross(w.loadForce[k]);
    f.force += w.loadForce[k];
    f.torque += torque;
    f.externalPower = w.loadForce[k].dot(s.velocity) + torque.dot(s.angularVelocity);
  }
  return f;
}

}  // namespace

std::size_t WorldParticles::memoryBytes() const {
  return elementBytes(templates) + elementBytes(templateOf) + elementBytes(mass) + elementBytes(moments) +
         elementBytes(reach) + elementBytes(centredPebble) + elementBytes(walls) + elementBytes(loadOf) +
         elementBytes(loadForce) + elementBytes(loadPoint);
}

std::shared_ptr<const WorldParticles> describeWorld(const WorldView& world) {
  auto w = std::make_shared<WorldParticles>();
  const BodyState& b = world.bodies;
  w->templates = world.model.templates;
  w->templateOf = b.templateIndex;
  w->mass = b.mass;
  w->moments = b.moments;
  w->reach.reserve(b.size());
  w->centredPebble.reserve(b.size());
  for (const std::uint32_t t : b.templateIndex) {
    const ClumpTemplate& tmpl = *w->templates[t];
    w->reach.push_back(tmpl.boundingRadius);
    const bool centred = tmpl.pebbles.size() == 1 &&
                         tmpl.pebbles.front().center.norm() <= 1e-12 * tmpl.pebbles.front().reach();
    w->centredPebble.push_back(centred ? 1 : 0);
  }
  w->contact = world.model.contact;
  w->walls = world.model.walls;
  const WorldSettings& s = world.model.settings;
  w->box = s.periodic;
  w->gravity = s.gravity;
  w->linearDamping = s.linearDamping;
  w->angularDamping = s.angularDamping;
  w->loadOf.assign(b.size(), -1);
  for (const ExternalLoad& load : world.loads) {
    w->loadOf[load.body] = static_cast<std::int32_t>(w->loadForce.size());
    w->loadForce.push_back(load.force);
    w->loadPoint.push_back(load.point);
  }
  return w;
}

ParticleModel makeParticleModel(const std::shared_ptr<const WorldParticles>& particles) {
  const WorldParticles& w = *particles;
  ParticleModel m;
  const std::size_t n = w.templateOf.size();
  m.inertia.reserve(n);
  for (std::size_t i = 0; i < n; ++i) m.inertia.push_back({w.mass[i], w.moments[i]});
  m.reach = w.reach;
  m.gravity = w.gravity;
  m.box = w.box;
  m.wallCount = w.walls.size();
  const std::shared_ptr<const WorldParticles>& p = particles;
  m.surfaceDistance = [p](std::uint32_t i, std::uint32_t j, const Vec3& separation, const Quat& qi,
                          const Quat& qj) { return surfaceDistance(*p, i, j, separation, qi, qj); };
  m.pairForce = [p](std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                    ContactMemoryView memory) { return pairForce(*p, i, j, si, sj, memory); };
  m.wallDistance = [p](std::uint32_t i, std::uint32_t wall, const ParticleState& s) {
    return wallDistance(*p, i, p->walls[wall], s);
  };
  m.wallForce = [p](std::uint32_t i, std::uint32_t wall, const ParticleState& s, ContactMemoryView memory) {
    return wallForce(*p, i, wall, s, memory);
  };
  if (contactKeepsLargestOverlap(w.contact)) {
    m.commitPair = [p](std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                       ContactMemoryView previous, std::vector<ContactMemoryEntry>& next) {
      return commitPair(*p, i, j, si, sj, previous, next);
    };
    m.commitWall = [p](std::uint32_t i, std::uint32_t wall, const ParticleState& s,
                       ContactMemoryView previous, std::vector<ContactMemoryEntry>& next) {
      return commitWall(*p, i, wall, s, previous, next);
    };
  }
  m.pointSpeed = [p](std::uint32_t i, const ParticleState& s, const Vec3& bodyAngularVelocity) {
    if (p->centredPebble[i] != 0) {  // the paper's shaft ends (a sphere: its centre)
      const Pebble& pebble = pebblesOf(*p, i).front();
      return shaftEndSpeed(s.velocity, s.angularVelocity, s.orientation * pebble.axis,
                           2.0 * pebble.halfLength);
    }
    return s.velocity.norm() + p->reach[i] * angularSpeedBound(p->moments[i], bodyAngularVelocity);
  };
  m.pointDisplacement = [p](std::uint32_t i, const Vec3& dx, const Quat& before, const Quat& after) {
    if (p->centredPebble[i] != 0) {
      const Pebble& pebble = pebblesOf(*p, i).front();
      return shaftEndDisplacement(dx, before.normalized() * pebble.axis, after.normalized() * pebble.axis,
                                  2.0 * pebble.halfLength);
    }
    return boundingDisplacement(dx, before, after, p->reach[i]);
  };
  const bool damped = w.linearDamping > 0.0 || w.angularDamping > 0.0;
  if (damped || !w.loadForce.empty()) {
    m.bodyForce = [p](std::uint32_t i, const ParticleState& s) { return bodyForce(*p, i, s); };
    m.driven.assign(n, damped ? 1 : 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (w.loadOf[i] >= 0) m.driven[i] = 1;
    }
    m.drivenAcceleration = [p](std::uint32_t i, const ParticleState& s) {
      // Damping only slows bodies down. A load's point stays where it is while the body moves: a
      // point within reach rho of the centre accelerates by at most |F|/m + rho |T| / I_min with the
      // lever arm |point - x| grown by at most rho (far more than a list's lifetime lets a body
      // move). The gyroscopic part is in the speed bound.
      if (p->loadOf[i] < 0) return 0.0;
      const auto k = static_cast<std::size_t>(p->loadOf[i]);
      const double rho = p->reach[i], force = p->loadForce[k].norm();
      const double arm = p->box.minimumImage(p->loadPoint[k] - s.position).norm() + rho;
      return force / p->mass[i] + rho * force * arm / p->moments[i].minCoeff();
    };
  }
  return m;
}

RigidBodySet bodySetOf(const BodyState& bodies) {
  RigidBodySet s;
  s.position = bodies.position;
  s.velocity = bodies.velocity;
  s.orientation = bodies.orientation;
  s.bodyAngularVelocity.resize(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) s.bodyAngularVelocity[i] = bodies.bodyAngularVelocity(i);
  return s;
}

ContactSummary summarizeContacts(const WorldParticles& w, const NeighborCsr& neighbors,
                                 const RigidBodySet& state, const ContactMemory* memory) {
  ContactSummary out;
  const auto note = [&](double overlap, double radius, std::uint32_t body) {
    const double ratio = overlap / radius;
    if (ratio > out.worstOverlapRatio) {
      out.worstOverlapRatio = ratio;
      out.worstBody = body;
    }
    out.worstOverlap = std::max(out.worstOverlap, overlap);
  };
  for (std::uint32_t i = 0; i < state.size(); ++i) {
    const Vec3& xi = state.position[i];
    const ContactMemoryView remembers =
        memory != nullptr && i < memory->of.size() ? ContactMemoryView(memory->of[i]) : ContactMemoryView();
    for (const std::int32_t e : neighbors.of(i)) {
      if (NeighborCsr::isWall(e)) {
        const std::uint32_t wall = NeighborCsr::wallIndex(e);
        forEachWallTouch(w, i, w.walls[wall], xi, state.orientation[i],
                         [&](const PlacedPebble& p, std::uint32_t end, const ContactTouch& t) {
                           ++out.wallContacts;
                           out.points.push_back(t.point);
                           const double largest = remembered(remembers, kWallPartner + wall, p.index, end);
                           out.elasticEnergy += contactElasticEnergy(w.contact, t, largest);
                           note(t.overlap, p.radius, i);
                         });
        continue;
      }
      const auto j = static_cast<std::uint32_t>(e);
      if (j < i) continue;
      const Vec3 xj = xi + w.box.minimumImage(state.position[j] - xi);
      forEachTouch(w, i, j, xi, state.orientation[i], xj, state.orientation[j],
                   [&](const PlacedPebble& a, const PlacedPebble& b, const ContactTouch& t) {
                     ++out.pebbleContacts;
                     out.points.push_back(t.point);
                     out.elasticEnergy +=
                         contactElasticEnergy(w.contact, t, remembered(remembers, j, a.index, b.index));
                     note(t.overlap, std::min(a.radius, b.radius), i);
                   });
    }
  }
  return out;
}

ContactSummary summarizeContacts(const WorldParticles& w, const ParticleModel& model,
                                 const RigidBodySet& state, const ContactMemory* memory) {
  if (state.size() == 0) return {};
  const double largest = *std::max_element(w.reach.begin(), w.reach.end());
  return summarizeContacts(w, neighborsOf(model, state, 1e-6 * largest), state, memory);
}

double resolveBuffer(double buffer, const std::vector<TemplatePtr>& templates) {
  if (buffer > 0.0) return buffer;
  double radius = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : templates) radius = std::min(radius, t->minPebbleRadius);
  return std::isfinite(radius) && radius > 0.0 ? 0.6 * radius : 1e-4;
}

}  // namespace clumplab::cim
