#include "core/io/OutputCsv.hpp"
#include "core/world/World.hpp"

#include <cstdio>
#include <stdexcept>

namespace clumplab {

namespace {
void put(std::ofstream& out, double v, char sep = ',') {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g%c", v, sep);
  out << buffer;
}
}  // namespace

const char* EnergyCsvWriter::header() {
  return "time,ke_translational,ke_rotational,pe_gravity,pe_elastic,dissipated,total,px,py,pz,lx,ly,lz";
}

EnergyCsvExtras EnergyCsvExtras::forScene(const WorldSettings& settings, const std::vector<Wall>& walls,
                                          bool anyPointProperties) {
  const FieldSettings defaults;
  bool enabled = anyPointProperties || settings.plane.enabled ||
                 settings.fields.electric != defaults.electric ||
                 settings.fields.magnetic != defaults.magnetic;
  bool moving = false;
  for (const Wall& w : walls) {
    enabled = enabled || w.kind == Wall::Kind::Membrane;
    moving = moving || (w.kind == Wall::Kind::Mesh && w.mesh->motion.moves());
  }
  return {enabled, enabled ? walls.size() : 0, moving};
}

EnergyCsvWriter::EnergyCsvWriter(const std::string& path, EnergyCsvExtras extras)
    : file_(path), out_(file_.stream()), extras_(extras) {
  out_ << header();
  if (extras_.enabled) {
    out_ << ",pe_fields";
    for (std::size_t w = 0; w < extras_.walls; ++w) out_ << ",jx_" << w << ",jy_" << w << ",jz_" << w;
  }
  if (extras_.wallWork) out_ << ",wall_work";
  out_ << '\n';
}

void EnergyCsvWriter::write(const EnergyReport& e, const std::vector<Vec3>& wallImpulses) {
  for (double v :
       {e.time, e.keTranslational, e.keRotational, e.peGravity, e.peElastic, e.dissipated, e.total(),
        e.momentum.x(), e.momentum.y(), e.momentum.z(), e.angularMomentum.x(), e.angularMomentum.y()}) {
    put(out_, v);
  }
  const char last = extras_.wallWork ? ',' : '\n';
  if (!extras_.enabled) {
    put(out_, e.angularMomentum.z(), last);
  } else {
    put(out_, e.angularMomentum.z());
    put(out_, e.peFields, extras_.walls == 0 ? last : ',');
    for (std::size_t w = 0; w < extras_.walls; ++w) {
      const Vec3 j = w < wallImpulses.size() ? wallImpulses[w] : Vec3::Zero();
      put(out_, j.x());
      put(out_, j.y());
      put(out_, j.z(), w + 1 == extras_.walls ? last : ',');
    }
  }
  if (extras_.wallWork) put(out_, e.wallWork, '\n');
}

const char* StateCsvWriter::header() {
  return "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,wb1,wb2,wb3";
}

StateCsvWriter::StateCsvWriter(const std::string& path) : file_(path), out_(file_.stream()) {
  out_ << header() << '\n';
}

void StateCsvWriter::write(double time, const BodyState& s) {
  for (std::size_t b = 0; b < s.size(); ++b) {
    put(out_, time);
    out_ << b << ',';
    const Vec3& x = s.position[b];
    const Quat& q = s.orientation[b];
    const Vec3& v = s.velocity[b];
    const Vec3& w = s.angularVelocity[b];
    const Vec3 wb = s.bodyAngularVelocity(b);
    for (double value : {x.x(), x.y(), x.z(), q.w(), q.x(), q.y(), q.z(), v.x(), v.y(), v.z(), w.x(), w.y(),
                         w.z(), wb.x(), wb.y()}) {
      put(out_, value);
    }
    put(out_, wb.z(), '\n');
  }
}

}  // namespace clumplab
