// MercuryDPM clump folders (MercuryDPM rigid clumps, MClump's output as MercuryDPM's ClumpIO reads it) and a
// description of the rest of the scene, plus the VTK export of the initial state.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "ExportChecks.hpp"
#include "MercuryDescriptions.hpp"
#include "MeshWallExport.hpp"
#include "core/export/SceneExport.hpp"
#include "core/export/VtkSeriesWriter.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/world/World.hpp"

namespace clumplab {

namespace fs = std::filesystem;

namespace {

// A template's folder name: its name with anything but letters, digits, '-' and '_' replaced.
std::string folderName(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return out.empty() ? std::string("template") : out;
}

void refuseSpherocylinders(const Scene& scene, const std::vector<TemplatePtr>& templates) {
  for (const TemplatePtr& t : templates) {
    for (const Pebble& p : t->pebbles) {
      if (!p.isSphere())
        exporting::refuse(scene, "templates." + t->name, "MercuryDPM",
                          "spherocylinder pebbles cannot be written as Clump.txt rows (x, y, z, r)");
    }
  }
}

// MClump's folder of one template: Clump/Clump.txt (x, y, z, r rows) and Inertia/Mass.txt, TOI.txt,
// PD.txt (MercuryDPM rigid clumps), in its principal frame.
void writeClumpFolder(const ClumpTemplate& t, const fs::path& dir, const std::string& name,
                      ExportResult& result) {
  exporting::makeFolder(dir / name / "Clump");
  exporting::makeFolder(dir / name / "Inertia");
  AtomicOutputFile clumpFile = exporting::openOutput(dir / name / "Clump" / "Clump.txt");
  std::ofstream& clump = clumpFile.stream();
  for (const Pebble& p : t.pebbles)
    clump << exporting::vec(p.center, ",") << "," << exporting::number(p.radius) << "\n";
  AtomicOutputFile massFile = exporting::openOutput(dir / name / "Inertia" / "Mass.txt");
  std::ofstream& mass = massFile.stream();
  mass << exporting::number(t.mass) << "\n";
  AtomicOutputFile toiFile = exporting::openOutput(dir / name / "Inertia" / "TOI.txt");
  std::ofstream& toi = toiFile.stream();
  const Vec3& I = t.principalMoments;
  toi << exporting::number(I.x()) << " 0 0\n0 " << exporting::number(I.y()) << " 0\n0 0 "
      << exporting::number(I.z()) << "\n";
  AtomicOutputFile pdFile = exporting::openOutput(dir / name / "Inertia" / "PD.txt");
  std::ofstream& pd = pdFile.stream();
  pd << "1 0 0\n0 1 0\n0 0 1\n";
  for (AtomicOutputFile* f : {&clumpFile, &massFile, &toiFile, &pdFile}) f->commit();
  for (const char* f : {"Clump/Clump.txt", "Inertia/Mass.txt", "Inertia/TOI.txt", "Inertia/PD.txt"})
    result.files.push_back(name + "/" + f);
}

void writeHeader(std::ostream& out, const Scene& scene) {
  out << "# ClumpLab scene for MercuryDPM, written by clumplab-cli export from " << scene.file << "\n"
      << "# Units SI. Each clump folder is in its principal frame: pebbles x,y,z,r about the centre of "
         "mass,\n"
      << "# Mass.txt the mass [kg] (not per unit density), TOI.txt the tensor of inertia about the centre\n"
      << "# of mass [kg m^2] (diagonal, ascending), PD.txt the principal directions (the identity).\n"
      << "# A body's orientation rotates that frame into the world (quaternion w x y z, and the rotation\n"
      << "# matrix's rows). Mesh walls: their triangles at time 0 in meshes/wallW.stl (world), pose0 the\n"
      << "# wall frame's pose then; a point x of the file is at P(t) + Q(t) Q0^-1 (x - P0) for the frame's\n"
      << "# pose (P, Q) at time t. Inlets: template weights by count; masses [kg], rates [kg/s]. \"blocked "
         "B\n"
      << "# xyzXYZ\": body B's blocked degrees of freedom (translations along, rotations about world "
         "axes).\n";
  if (!scene.description.empty()) out << "description " << scene.description << "\n";
}

void writeContact(std::ostream& out, const Scene& scene) {
  out << "time_step " << exporting::number(scene.model.settings.timeStep) << "\n"
      << "integrator " << integratorName(scene.model.settings.integrator) << "\n"
      << "gravity " << exporting::vec(scene.model.settings.gravity) << "\n";
  const ContactModel& c = scene.model.contact;
  if (c.kind == ContactModel::Kind::Linear) {
    const LinearContactParameters& p = c.linear;
    out << "contact linear stiffness " << exporting::number(p.stiffness);
    if (p.dampingFromRestitution) {
      out << " restitution " << exporting::number(p.restitution)
          << " (dashpot 2 gamma sqrt(m_eff k), gamma = "
          << exporting::number(dampingRatioForRestitution(p.restitution)) << ", m_eff of the two bodies)";
    } else {
      out << " damping " << exporting::number(p.damping);
    }
    out << " friction " << exporting::number(p.friction) << " tangential_stiffness "
        << exporting::number(p.tangentialStiffnessRatio * p.stiffness) << " tangential_damping "
        << exporting::number(p.tangentialDamping) << " limit_damping " << (p.limitDamping ? "yes" : "no")
        << "\n";
  } else if (c.kind == ContactModel::Kind::HertzMindlin) {
    const HertzMindlinContactParameters& p = c.hertzMindlin;
    out << "contact hertz-mindlin youngs_modulus " << exporting::number(p.youngsModulus) << " poisson "
        << exporting::number(p.poisson) << " restitution " << exporting::number(p.restitution) << " friction "
        << exporting::number(p.friction) << "   (E* = " << exporting::number(p.effectiveYoung())
        << " Pa, G* = " << exporting::number(p.effectiveShear())
        << " Pa; F_n = 4/3 E* sqrt(R* d) d, S_t = 8 G* sqrt(R* d), dashpots 2 sqrt(5/6) zeta sqrt(S m*))\n";
  } else {
    const HertzContactParameters& p = c.hertz;
    out << "contact hertz young " << exporting::number(p.young) << " poisson " << exporting::number(p.poisson)
        << " restitution_squared " << exporting::number(p.restitutionSquared) << " friction "
        << exporting::number(p.friction) << " regularizing_velocity "
        << exporting::number(p.regularizingVelocity) << "   (Mutze, Polyspherical grains, eq. 52-57)\n";
  }
}

void writeWalls(std::ostream& out, const Scene& scene, const fs::path& dir, ExportResult& result) {
  const PeriodicBox& periodic = scene.model.settings.periodic;
  if (periodic.any()) {
    out << "periodic min " << exporting::vec(periodic.lower) << " max "
        << exporting::vec(periodic.lower + periodic.length) << " axes";
    for (int a = 0; a < 3; ++a) {
      if (periodic.periodic[a]) out << ' ' << "xyz"[a];
    }
    out << "\n";
  }
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    const Wall& wall = scene.model.walls[w];
    if (wall.kind == Wall::Kind::SphereCavity) {
      out << "wall " << w << " sphere_cavity center " << exporting::vec(wall.point) << " radius "
          << exporting::number(wall.radius) << "\n";
    } else if (wall.kind == Wall::Kind::Plane || wall.kind == Wall::Kind::Membrane) {
      out << "wall " << w << (wall.kind == Wall::Kind::Membrane ? " membrane" : " plane") << " point "
          << exporting::vec(wall.point) << " normal " << exporting::vec(wall.normal);
      if (wall.kind == Wall::Kind::Membrane) out << " pass_radius " << exporting::number(wall.passRadius);
      out << "\n";
    } else {
      out << exporting::describeMeshWall(scene, w);
      exporting::makeFolder(dir / "meshes");
      exporting::writeAsciiStl(exporting::meshAtStart(*wall.mesh), "wall" + std::to_string(w),
                               dir / exporting::meshWallFileName(w));
      result.files.push_back(exporting::meshWallFileName(w));
    }
  }
}

void writeBodies(std::ostream& out, const BodyState& bodies, const std::vector<std::string>& names) {
  out << "# body template folder x y z qw qx qy qz R11 R12 R13 R21 R22 R23 R31 R32 R33 vx vy vz wx wy wz\n";
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Quat& q = bodies.orientation[b];
    const Mat3 r = q.toRotationMatrix();
    out << "body " << b << " " << names[bodies.templateIndex[b]] << " " << exporting::vec(bodies.position[b])
        << " " << exporting::number(q.w()) << " " << exporting::number(q.x()) << " "
        << exporting::number(q.y()) << " " << exporting::number(q.z());
    for (int i = 0; i < 3; ++i) out << " " << exporting::vec(r.row(i).transpose());
    out << " " << exporting::vec(bodies.velocity[b]) << " " << exporting::vec(bodies.angularVelocity[b])
        << "\n";
    if (b < bodies.blocked.size() && bodies.blocked[b] != 0)
      out << "blocked " << b << " " << blockedDofsText(bodies.blocked[b]) << "\n";
  }
}

}  // namespace

ExportResult exportMercury(const Scene& scene, const World& world, const std::string& folder) {
  const std::vector<TemplatePtr>& templates = world.model().templates;
  refuseSpherocylinders(scene, templates);
  ExportResult result;
  const fs::path dir(folder);
  exporting::makeFolder(dir);
  std::vector<std::string> names;
  for (const TemplatePtr& t : templates) {
    std::string name = folderName(t->name);
    while (std::find(names.begin(), names.end(), name) != names.end()) name += "_";
    names.push_back(name);
    writeClumpFolder(*t, dir, name, result);
  }
  AtomicOutputFile outFile = exporting::openOutput(dir / "scene.txt");
  std::ofstream& out = outFile.stream();
  writeHeader(out, scene);
  writeContact(out, scene);
  writeWalls(out, scene, dir, result);
  for (std::size_t i = 0; i < scene.inlets.size(); ++i) out << exporting::describeInlet(scene, i, names);
  writeBodies(out, world.bodies(), names);
  outFile.commit();
  result.files.push_back("scene.txt");
  return result;
}

ExportResult exportVtk(const World& world, const std::string& folder) {
  VtkSeriesWriter writer(folder);
  writer.write(world);
  return {writer.files(), {}, {}};
}

}  // namespace clumplab
