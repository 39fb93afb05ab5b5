#include "core/collision/MeshWallContacts.hpp"

#include <algorithm>
#include <string>

#include "core/collision/ContactLaw.hpp"

namespace clumplab {

namespace {
// A mesh wall at the evaluation time: its pose, rotation and a bounding sphere in the world.
struct PosedWall {
  std::uint32_t index = 0;
  const MeshWallShape* shape = nullptr;
  WallPose pose;
  Mat3 rotation = Mat3::Identity();  // wall frame -> world
  Vec3 boundCenter = Vec3::Zero();   // [m], world
  double boundRadius = 0.0;          // [m]
};

std::vector<PosedWall> posedWalls(const std::vector<Wall>& walls, double time) {
  std::vector<PosedWall> out;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (walls[w].kind != Wall::Kind::Mesh) continue;
    PosedWall p;
    p.index = static_cast<std::uint32_t>(w);
    p.shape = walls[w].mesh->shape.get();
    p.pose = walls[w].mesh->poseAt(time);
    p.rotation = p.pose.orientation.toRotationMatrix();
    const Vec3 middle = 0.5 * (p.shape->lower() + p.shape->upper());
    p.boundCenter = p.pose.identity ? middle : Vec3(p.pose.position + p.rotation * middle);
    p.boundRadius = 0.5 * (p.shape->upper() - p.shape->lower()).norm();
    out.push_back(p);
  }
  return out;
}

// One contact of a pebble with a mesh wall, in the world.
struct FoundContact {
  std::uint32_t wall = 0;  // index into WorldModel::walls
  std::uint32_t feature = 0;
  Vec3 normal = Vec3::UnitZ();
  double distance = 0.0;
  const WallPose* pose = nullptr;
};

// Every contact of the sphere (c, r) with the posed walls, in wall order; `near` (optional): the
// sphere's near-triangle lists, one per posed wall, refreshed here when it has moved too far.
void findContacts(const std::vector<PosedWall>& walls, const Vec3& c, double r,
                  std::vector<FoundContact>& out, std::vector<MeshTouch>& touches,
                  std::vector<std::uint32_t>& scratch, MeshNearCache::Entry* near = nullptr) {
  out.clear();
  for (std::size_t k = 0; k < walls.size(); ++k) {
    const PosedWall& w = walls[k];
    const double reach = w.boundRadius + r;
    if ((c - w.boundCenter).squaredNorm() >= reach * reach) continue;
    const Vec3 local = w.pose.identity ? c : Vec3(w.rotation.transpose() * (c - w.pose.position));
    if (near != nullptr) {
      MeshNearCache::Entry& e = near[k];
      if (e.shape != w.shape->serial() || !MeshWallShape::nearListHolds(e.centre, e.reach, local, r)) {
        e.shape = w.shape->serial();
        e.centre = local;
        e.reach = MeshWallShape::nearReach(r);
        w.shape->near(local, e.reach, e.list);
      }
      w.shape->nearFrom(e.list, local, r, scratch);
      w.shape->touchCandidates(local, r, touches, scratch);
    } else {
      w.shape->touch(local, r, touches, scratch);
    }
    for (const MeshTouch& t : touches) {
      out.push_back({w.index, t.feature.key(), w.pose.identity ? t.normal : Vec3(w.rotation * t.normal),
                     t.distance, &w.pose});
    }
  }
}

ContactTouch worldTouch(const FoundContact& f, const Vec3& c, double r) {
  // As a plane wall (ContactKernels.hpp): the point in the middle of the overlap zone, r~ = 2 r.
  return {f.normal, r - f.distance, c - 0.5 * (r + f.distance) * f.normal, 2.0 * r};
}

// The history entries of `pebble` in the sorted history, from `from` on.
std::pair<std::size_t, std::size_t> pebbleRange(const std::vector<MeshContactHistory>& h,
                                                std::uint32_t pebble, std::size_t from) {
  std::size_t begin = from;
  while (begin < h.size() && h[begin].pebble < pebble) ++begin;
  std::size_t end = begin;
  while (end < h.size() && h[end].pebble == pebble) ++end;
  return {begin, end};
}

// Which entry of the pebble's history [o0, o1) each of its contacts `found` continues (source[k], o1 for
// none; used[o - o0] marks those taken): the same feature keeps its own; a new feature takes over the
// history of a lost contact with the same wall whose normal is closest to its own (sliding across
// triangles).
void continuedHistory(const std::vector<MeshContactHistory>& h, std::size_t o0, std::size_t o1,
                      const std::vector<FoundContact>& found, std::vector<std::size_t>& source,
                      std::vector<char>& used) {
  used.assign(o1 - o0, 0);
  source.assign(found.size(), o1);
  for (std::size_t k = 0; k < found.size(); ++k) {
    for (std::size_t o = o0; o < o1; ++o) {
      if (!used[o - o0] && h[o].wall == found[k].wall && h[o].feature == found[k].feature) {
        source[k] = o;
        used[o - o0] = 1;
        break;
      }
    }
  }
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (source[k] != o1) continue;
    std::size_t best = o1;
    double bestAlignment = -2.0;
    for (std::size_t o = o0; o < o1; ++o) {
      if (used[o - o0] || h[o].wall != found[k].wall) continue;
      const double alignment = h[o].normal.dot(found[k].normal);
      if (alignment > bestAlignment) {
        bestAlignment = alignment;
        best = o;
      }
    }
    if (best < o1) {
      source[k] = best;
      used[best - o0] = 1;
    }
  }
}
}  // namespace

void MeshNearCache::resize(std::size_t pebbles, std::size_t walls) {
  walls_ = walls;
  entries_.resize(pebbles * walls);
}

void MeshWallContacts::compute(const ContactModel& model, const PebbleArrays& pebbles,
                               const BodyState& bodies, const std::vector<Wall>& walls, double time,
                               double dt, ThreadPool& pool, const DriftVelocities& drift,
                               MeshNearCache* near) {
  const std::vector<PosedWall> posed = posedWalls(walls, time);
  const std::size_t n = pebbles.position.size();
  if (near != nullptr && !posed.empty()) near->resize(n, posed.size());
  usedChunks_ = posed.empty() ? 0 : (n + kChunkSize - 1) / kChunkSize;
  if (chunks_.size() < usedChunks_) chunks_.resize(usedChunks_);
  if (extra_.size() < usedChunks_) extra_.resize(usedChunks_);
  pool.run(usedChunks_, [&](std::size_t chunkIndex) {
    ContactChunk& out = chunks_[chunkIndex];
    ChunkExtra& extra = extra_[chunkIndex];
    out.records.clear();
    out.springEnergyChange = out.hysteresisLoss = 0.0;
    out.worstOverlapRatio = 0.0;
    out.pebbleContacts = out.wallContacts = 0;
    extra.history.clear();
    extra.recordPower.clear();
    std::vector<FoundContact> found;
    std::vector<MeshTouch> touches;
    std::vector<std::uint32_t> scratch;
    std::vector<char> used;
    std::vector<std::size_t> source;
    const std::size_t begin = chunkIndex * kChunkSize, end = std::min(n, begin + kChunkSize);
    std::size_t cursor = static_cast<std::size_t>(
        std::lower_bound(history_.begin(), history_.end(), static_cast<std::uint32_t>(begin),
                         [](const MeshContactHistory& h, std::uint32_t p) { return h.pebble < p; }) -
        history_.begin());
    for (std::size_t p = begin; p < end; ++p) {
      const auto pebble = static_cast<std::uint32_t>(p);
      const auto [o0, o1] = pebbleRange(history_, pebble, cursor);
      cursor = o1;
      const Vec3& c = pebbles.position[p];
      const double r = pebbles.radius[p];
      findContacts(posed, c, r, found, touches, scratch, near != nullptr ? near->entries(p) : nullptr);
      continuedHistory(history_, o0, o1, found, source, used);
      std::vector<Vec3> springs(found.size(), Vec3::Zero());
      std::vector<double> stiffnesses(found.size(), 0.0);  // each spring's last kt [N/m]
      for (std::size_t k = 0; k < found.size(); ++k) {
        if (source[k] == o1) continue;
        springs[k] = history_[source[k]].spring;
        stiffnesses[k] = history_[source[k]].springStiffness;
      }
      for (std::size_t o = o0; o < o1; ++o) {  // released: their energy is lost
        if (!used[o - o0])
          out.springEnergyChange -= tangentialSpringEnergy(history_[o].spring, history_[o].springStiffness);
      }
      const std::uint32_t body = pebbles.body[p];
      for (std::size_t k = 0; k < found.size(); ++k) {
        const ContactTouch t = worldTouch(found[k], c, r);
        const Vec3 u = found[k].pose->identity ? Vec3::Zero() : found[k].pose->surfaceVelocity(t.point);
        const Vec3 arm = t.point - bodies.position[body];
        const Vec3 w = bodies.velocity[body] + bodies.angularVelocity[body].cross(arm) - u;
        const Vec3 wDrift =
            drift.given() ? Vec3((*drift.linear)[body] + (*drift.angular)[body].cross(arm) - u) : w;
        const ContactLawStep f =
            contactForceWithSpring(model, t, w, wDrift, bodies.mass[body], springs[k], stiffnesses[k], dt);
        out.springEnergyChange += f.springEnergyChange;
        out.hysteresisLoss += f.hysteresisLoss;
        out.records.push_back({body, kWallBody, f.force, t.point, f.dissipative, found[k].wall});
        ++out.wallContacts;
        extra.recordPower.push_back({f.force.dot(u), f.dissipative.dot(u)});
        extra.history.push_back(
            {pebble, found[k].wall, found[k].feature, springs[k], stiffnesses[k], found[k].normal});
        const double ratio = t.overlap / r;
        if (ratio > out.worstOverlapRatio) {
          out.worstOverlapRatio = ratio;
          out.worstBody = body;
        }
      }
    }
  });
  // Springs of pebbles beyond the list (none unless pebbles were renumbered) are dropped.
  history_.clear();
  wallPower_ = wallDissipativePower_ = 0.0;
  for (std::size_t c = 0; c < usedChunks_; ++c) {
    history_.insert(history_.end(), extra_[c].history.begin(), extra_[c].history.end());
  }
  sumPowers();
}

std::size_t MeshWallContacts::memoryBytes() const {
  std::size_t n = chunks_.size() * sizeof(ContactChunk) + extra_.size() * sizeof(ChunkExtra) +
                  history_.size() * sizeof(MeshContactHistory);
  for (const ContactChunk& c : chunks_) n += c.records.size() * sizeof(ContactRecord);
  for (const ChunkExtra& e : extra_) {
    n += e.history.size() * sizeof(MeshContactHistory) + e.recordPower.size() * sizeof(e.recordPower[0]);
  }
  return n;
}

void MeshWallContacts::sumPowers() {
  wallPower_ = wallDissipativePower_ = 0.0;
  for (std::size_t c = 0; c < usedChunks_; ++c) {
    for (const auto& [power, dissipative] : extra_[c].recordPower) {
      wallPower_ += power;
      wallDissipativePower_ += dissipative;
    }
  }
}

void MeshWallContacts::removeBody(std::uint32_t body, std::uint32_t first, std::uint32_t count) {
  for (std::size_t c = 0; c < usedChunks_; ++c) {
    ContactChunk& chunk = chunks_[c];
    std::vector<std::array<double, 2>>& power = extra_[c].recordPower;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < chunk.records.size(); ++i) {
      if (chunk.records[i].bodyA == body) continue;
      chunk.records[kept] = chunk.records[i];
      power[kept] = power[i];
      chunk.records[kept].bodyA -= chunk.records[kept].bodyA > body ? 1 : 0;
      ++kept;
    }
    chunk.records.resize(kept);
    power.resize(kept);
    chunk.wallContacts = chunk.records.size();
    if (chunk.worstBody == body) chunk.worstOverlapRatio = 0.0;
    chunk.worstBody -= chunk.worstBody > body ? 1 : 0;
  }
  std::erase_if(history_,
                [&](const MeshContactHistory& h) { return h.pebble >= first && h.pebble < first + count; });
  for (MeshContactHistory& h : history_) h.pebble -= h.pebble >= first + count ? count : 0;
  sumPowers();
}

double MeshWallContacts::elasticEnergy(const ContactModel& model, const PebbleArrays& pebbles,
                                       const std::vector<Wall>& walls, double time) const {
  const std::vector<PosedWall> posed = posedWalls(walls, time);
  if (posed.empty()) return 0.0;
  double energy = 0.0;
  std::vector<FoundContact> found;
  std::vector<MeshTouch> touches;
  std::vector<std::uint32_t> scratch;
  std::vector<std::size_t> source;
  std::vector<char> used;
  const bool overlapMemory = contactKeepsLargestOverlap(model);
  std::size_t cursor = 0;
  for (std::size_t p = 0; p < pebbles.position.size(); ++p) {
    const auto [o0, o1] = pebbleRange(history_, static_cast<std::uint32_t>(p), cursor);
    cursor = o1;
    findContacts(posed, pebbles.position[p], pebbles.radius[p], found, touches, scratch);
    if (overlapMemory) continuedHistory(history_, o0, o1, found, source, used);
    for (std::size_t k = 0; k < found.size(); ++k) {
      const FoundContact& f = found[k];
      // Mutze's law: the largest overlap of the contact this one continues, as compute() takes it over.
      const double largest = overlapMemory && source[k] != o1 ? history_[source[k]].springStiffness : 0.0;
      energy += contactElasticEnergy(model, worldTouch(f, pebbles.position[p], pebbles.radius[p]), largest);
      for (std::size_t o = o0; o < o1; ++o) {
        if (history_[o].wall == f.wall && history_[o].feature == f.feature) {
          energy += tangentialSpringEnergy(history_[o].spring, history_[o].springStiffness);
        }
      }
    }
  }
  return energy;
}

std::string meshWallProblem(const std::vector<Wall>& walls, bool anySpherocylinders, bool ownForces) {
  for (std::size_t w = 0; w < walls.size(); ++w) {
    if (walls[w].kind != Wall::Kind::Mesh) continue;
    const std::string which = "wall " + std::to_string(w) + " (a mesh)";
    if (anySpherocylinders) {
      return which +
             ": spherocylinder pebbles (a shaft half length > 0) are not supported against mesh walls; use "
             "clumps of spheres, or plane, box and sphere walls";
    }
    if (ownForces) {
      return which +
             ": the cim and rk4 integrators evaluate contacts of their own and do not support mesh walls; "
             "use "
             "leapfrog, midpoint or splitting";
    }
  }
  return "";
}

}  // namespace clumplab
