// LIGGGHTS-PUBLIC 3.8 input deck for a scene (SceneExport.hpp). The mapping:
//   linear, fixed "damping" c   -> hooke/stiffness, absolute_damping on: kn, kt = ratio kn, gamman_abs
//                                  = c, gammat_abs = tangential_damping (exact);
//   linear, "restitution" e      -> hooke/stiffness with gamman per unit effective mass:
//                                  2 gamma sqrt(k / m_eff), m_eff = m/2 between bodies and m against
//                                  walls (exact when all bodies have one mass m, else a warning);
//   limit_damping                -> limitForce on;
//   hertz                        -> hertz with E_L = (3 sqrt 6 / 4) E and the same Poisson ratio (the same
//                                  force: Mutze's (sqrt3/2) E/(1-s^2) sqrt(H(r,r')) h^1.5 equals
//                                  (4/3) E* sqrt(R*) h^1.5 with E* = E_L / (2 (1-s^2)), walls of
//                                  the same material); restitution_squared d < 1 -> coefficientRestitution
//                                  sqrt(d) and friction -> Coulomb with history (warnings);
//   axis-aligned planes, boxes   -> fix wall/gran primitive xplane/yplane/zplane (two-sided in LIGGGHTS);
//   periodic axes                -> boundary p with the periodic box as the domain on those axes;
//   mesh walls                   -> fix mesh/surface + wall/gran mesh, move/mesh (LiggghtsMeshWalls.hpp);
//   inlets                       -> fix insert/rate/region (LiggghtsInlets.hpp);
//   bodies                       -> one fix insert/pack per body: exact orientation, velocity and
//                                  angular velocity, position within a 0.51 mm cube (see below).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "ExportChecks.hpp"
#include "LiggghtsInlets.hpp"
#include "LiggghtsMeshWalls.hpp"
#include "LiggghtsRoundTrip.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/export/PlacedPebbles.hpp"
#include "core/export/SceneExport.hpp"
#include "core/export/WallSurfaces.hpp"
#include "core/world/World.hpp"

namespace clumplab {

namespace fs = std::filesystem;

namespace {

// LIGGGHTS refuses an insertion region whose Monte Carlo volume is below 1e-10 (region.cpp, in
// the length unit cubed): a cube of this edge [m] is with 30% to spare for the Monte Carlo estimate.
constexpr double kInsertionCube = 5.1e-4;
// Voxels per side for the pebble union's centroid (its error is about a voxel's 1e-3 of the size).
constexpr int kCentroidVoxels = 160;

bool isPrime(long long n) {
  if (n < 2) return false;
  for (long long d = 2; d * d <= n; ++d) {
    if (n % d == 0) return false;
  }
  return true;
}

// LIGGGHTS's random seeds must be primes above 10000; each fix gets its own.
class PrimeSeeds {
 public:
  long long next() {
    while (!isPrime(++last_)) {
    }
    return last_;
  }

 private:
  long long last_ = 15485860;
};

// The per type-pair property for two atom types: bodies (1) and walls (2).
std::string typePairs(double bodyBody, double bodyWall) {
  return exporting::number(bodyBody) + " " + exporting::number(bodyWall) + " " + exporting::number(bodyWall) +
         " " + exporting::number(bodyWall);
}

const std::string kEngine = "LIGGGHTS";

// Walls: axis-aligned planes only (LIGGGHTS primitives), two-sided there, one-sided here. Mesh walls
// are mapped apart (LiggghtsMeshWalls.hpp).
std::vector<std::string> wallPrimitives(const Scene& scene) {
  std::vector<std::string> wallLines;
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    const Wall& wall = scene.model.walls[w];
    const std::string path = "walls[" + std::to_string(w) + "]";
    if (wall.kind == Wall::Kind::Mesh) continue;  // LiggghtsMeshWalls.hpp
    if (wall.kind == Wall::Kind::SphereCavity)
      exporting::refuse(scene, path, kEngine,
                        "a spherical cavity has no wall/gran primitive (only planes and cylinders)");
    if (wall.kind != Wall::Kind::Plane)
      exporting::refuse(scene, path, kEngine, "only plane walls are mapped");
    const int axis = exporting::axisOf(wall.normal);
    if (axis < 0)
      exporting::refuse(scene, path, kEngine,
                        "only planes normal to x, y or z map to wall/gran primitives; this one's normal is " +
                            exporting::vec(wall.normal));
    const char* names[3] = {"xplane", "yplane", "zplane"};
    wallLines.push_back(std::string(names[axis]) + " " + exporting::number(wall.point[axis]));
  }
  return wallLines;
}

// The contact law as the deck writes it: the material fixes, the pair style's model and tangential
// keywords and its settings (which go last on pair_style and wall/gran lines).
struct DeckContact {
  std::vector<std::string> material;
  double young = 0.0;  // the deck's youngsModulus [Pa] (0: the linear law has none)
  std::string model;
  std::string settings;
};

// The linear law; `masses` are the bodies' and each inlet template's (LIGGGHTS's damping is per unit
// effective mass).
DeckContact linearContact(const LinearContactParameters& p, const std::vector<double>& masses,
                          std::vector<std::string>& warnings) {
  DeckContact deck;
  std::vector<std::string>& material = deck.material;
  std::string& model = deck.model;
  std::string& settings = deck.settings;
  double massSum = 0.0, massMin = masses[0], massMax = masses[0];
  for (double m : masses) {
    massSum += m;
    massMin = std::min(massMin, m);
    massMax = std::max(massMax, m);
  }
  const double massMean = massSum / static_cast<double>(masses.size());
  const double kt = p.tangentialStiffnessRatio * p.stiffness;
  material.push_back("fix m_kn all property/global kn peratomtypepair 2 " +
                     typePairs(p.stiffness, p.stiffness));
  material.push_back("fix m_kt all property/global kt peratomtypepair 2 " + typePairs(kt, kt));
  if (p.dampingFromRestitution) {
    // c = 2 gamma sqrt(m_eff k) per pair; LIGGGHTS multiplies gamman by m_eff.
    const double gamma = dampingRatioForRestitution(p.restitution);
    const double pairMass = 0.5 * massMean, wallMass = massMean;
    material.push_back("fix m_gn all property/global gamman peratomtypepair 2 " +
                       typePairs(2.0 * gamma * std::sqrt(p.stiffness / pairMass),
                                 2.0 * gamma * std::sqrt(p.stiffness / wallMass)));
    material.push_back("fix m_gt all property/global gammat peratomtypepair 2 " +
                       typePairs(p.tangentialDamping / pairMass, p.tangentialDamping / wallMass));
    if (massMax > massMin * (1.0 + 1e-12)) {
      warnings.push_back(
          "contact.restitution: LIGGGHTS scales damping with each pair's effective mass; ClumpLab's "
          "2 gamma sqrt(m_eff k) is reproduced for bodies of the mean mass " +
          exporting::number(massMean) + " kg only (masses here range " + exporting::number(massMin) + " to " +
          exporting::number(massMax) +
          " kg, so other pairs get restitution coefficients off by up to the square root of the mass "
          "ratio)");
    }
    if (p.tangentialDamping > 0.0) {
      warnings.push_back(
          "contact.tangential_damping: given per unit effective mass with the mean body mass (exact for "
          "one mass)");
    }
    model = "hooke/stiffness tangential history";
  } else {
    material.push_back("fix m_gn all property/global gamman_abs peratomtypepair 2 " +
                       typePairs(p.damping, p.damping));
    material.push_back("fix m_gt all property/global gammat_abs peratomtypepair 2 " +
                       typePairs(p.tangentialDamping, p.tangentialDamping));
    model = "hooke/stiffness tangential history";
    settings += " absolute_damping on";
  }
  material.push_back("fix m_mu all property/global coefficientFriction peratomtypepair 2 " +
                     typePairs(p.friction, p.friction));
  if (p.limitDamping) settings += " limitForce on";
  if (p.tangentialDamping == 0.0) settings += " tangential_damping off";
  return deck;
}

DeckContact hertzMindlinContact(const HertzMindlinContactParameters& p) {
  DeckContact deck;
  // The material card as it is: ClumpLab's hertz-mindlin is LIGGGHTS's hertz law (one material for
  // pebbles and walls).
  deck.young = p.youngsModulus;
  deck.material.push_back("fix m_E all property/global youngsModulus peratomtype " +
                          exporting::number(p.youngsModulus) + " " + exporting::number(p.youngsModulus));
  deck.material.push_back("fix m_nu all property/global poissonsRatio peratomtype " +
                          exporting::number(p.poisson) + " " + exporting::number(p.poisson));
  deck.material.push_back("fix m_e all property/global coefficientRestitution peratomtypepair 2 " +
                          typePairs(p.restitution, p.restitution));
  deck.material.push_back("fix m_mu all property/global coefficientFriction peratomtypepair 2 " +
                          typePairs(p.friction, p.friction));
  deck.model = p.friction > 0.0 ? "hertz tangential history" : "hertz tangential no_history";
  return deck;
}

// Mutze's hertz law (Mutze, Polyspherical grains, eq. 52-57) as LIGGGHTS's hertz model.
DeckContact mutzeHertzContact(const HertzContactParameters& p, std::vector<std::string>& warnings) {
  DeckContact deck;
  const double young = 3.0 * std::sqrt(6.0) / 4.0 * p.young;
  deck.young = young;
  deck.material.push_back("fix m_E all property/global youngsModulus peratomtype " +
                          exporting::number(young) + " " + exporting::number(young));
  deck.material.push_back("fix m_nu all property/global poissonsRatio peratomtype " +
                          exporting::number(p.poisson) + " " + exporting::number(p.poisson));
  const double e = std::sqrt(p.restitutionSquared);
  deck.material.push_back("fix m_e all property/global coefficientRestitution peratomtypepair 2 " +
                          typePairs(e, e));
  deck.material.push_back("fix m_mu all property/global coefficientFriction peratomtypepair 2 " +
                          typePairs(p.friction, p.friction));
  if (p.restitutionSquared < 1.0) {
    warnings.push_back(
        "contact.restitution_squared: Mutze's restitution (a hysteresis in the overlap that gives back " +
        exporting::number(p.restitutionSquared) +
        " of the work of loading) becomes LIGGGHTS's Hertz dashpot with coefficientRestitution " +
        exporting::number(e) + ": the same restitution of a head-on collision, a different force history");
  }
  deck.model = "hertz tangential no_history";
  if (p.friction > 0.0) {
    deck.model = "hertz tangential history";
    warnings.push_back(
        "contact.friction: Mutze's regularised friction (mu F_n w_t / (nu + |w_t|), nu = " +
        exporting::number(p.regularizingVelocity) +
        " m/s) becomes Coulomb friction with a Mindlin tangential spring (tangential history)");
  }
  return deck;
}

DeckContact deckContact(const Scene& scene, const World& world, std::vector<std::string>& warnings) {
  const ContactModel& c = scene.model.contact;
  if (c.kind == ContactModel::Kind::Linear) {
    const BodyState& bodies = world.bodies();
    std::vector<double> masses(bodies.mass.begin(), bodies.mass.end());
    for (std::uint32_t t : exporting::inletTemplates(scene))
      masses.push_back(world.model().templates[t]->mass);
    return linearContact(c.linear, masses, warnings);
  }
  if (c.kind == ContactModel::Kind::HertzMindlin) return hertzMindlinContact(c.hertzMindlin);
  return mutzeHertzContact(c.hertz, warnings);
}

// The templates of the bodies and of the inlets, in index order: each one a multisphere template.
std::vector<std::uint32_t> templatesInDeck(const Scene& scene, const World& world) {
  const BodyState& bodies = world.bodies();
  std::vector<std::uint32_t> used;
  for (std::uint32_t t : bodies.templateIndex) used.push_back(t);
  for (std::uint32_t t : exporting::inletTemplates(scene)) used.push_back(t);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (std::uint32_t t : used) {
    if (world.model().templates[t]->pebbles.size() < 2)
      exporting::refuse(scene, "templates." + world.model().templates[t]->name, kEngine,
                        "a one-pebble template: LIGGGHTS-PUBLIC's particletemplate/multisphere takes two "
                        "spheres or more (\"illegal number of spheres\"), and single spheres would need "
                        "an integrator of their own");
  }
  return used;
}

// The domain: the bodies' extent, the walls, where the meshes go and the inlets' regions; shrink-wrapped
// ("m") on open axes, so bodies are never lost; exactly the periodic box on periodic axes.
struct DeckDomain {
  Box3 box;
  std::string boundary;  // "p" or "m" per axis
  double skin = 0.0;     // [m]
};

DeckDomain deckDomain(const Scene& scene, const World& world, const Box3& meshSweep,
                      const Box3& inletRegions) {
  const BodyState& bodies = world.bodies();
  double reach = 0.0, smallest = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : world.model().templates) {
    reach = std::max(reach, t->boundingRadius);
    smallest = std::min(smallest, t->minPebbleRadius);
  }
  Box3 domain = wallDrawingDomain(placedPebbles(bodies, world.model().templates).position, 2.0 * reach,
                                  scene.model.walls);
  for (const Box3& extra : std::array<Box3, 2>{meshSweep, inletRegions}) {
    if (extra.isEmpty()) continue;
    const Vec3 margin = Vec3::Constant(2.0 * reach + 1e-3 * extra.sizes().maxCoeff());
    domain.extend(extra.min() - margin);
    domain.extend(extra.max() + margin);
  }
  const PeriodicBox& periodic = scene.model.settings.periodic;
  std::string boundary;
  for (int a = 0; a < 3; ++a) {
    if (periodic.periodic[a]) {
      domain.min()[a] = periodic.lower[a];
      domain.max()[a] = periodic.lower[a] + periodic.length[a];
    }
    boundary += periodic.periodic[a] ? (a ? " p" : "p") : (a ? " m" : "m");
  }
  const double skin = scene.model.settings.skin > 0.0 ? scene.model.settings.skin : 0.4 * smallest;

  return {domain, boundary, skin};
}

// The clump templates (their pebble files beside the deck) and a particle distribution for each.
void writeTemplates(std::ostream& out, const std::vector<std::uint32_t>& used, const World& world,
                    const fs::path& dir, PrimeSeeds& seeds, ExportResult& result) {
  out << "\n# Clump templates in their principal frame (centre of mass at the origin, axes along the\n"
         "# principal axes), with ClumpLab's mass and moments (use_volume: LIGGGHTS's Monte Carlo volume\n"
         "# only sets the nominal density)\n";
  for (std::size_t k = 0; k < used.size(); ++k) {
    const ClumpTemplate& t = *world.model().templates[used[k]];
    const std::string file = "templates/template" + std::to_string(k + 1) + ".multisphere";
    AtomicOutputFile pebblesFile = exporting::openOutput(dir / file);
    std::ofstream& pebbles = pebblesFile.stream();
    pebbles << "# " << t.name << ": x y z r [m], principal frame\n";
    for (const Pebble& p : t.pebbles)
      pebbles << exporting::vec(p.center) << " " << exporting::number(p.radius) << "\n";
    pebblesFile.commit();
    result.files.push_back(file);
    // LIGGGHTS-PUBLIC ignores the template's own centre of mass: it takes the Monte Carlo centroid
    // of the pebble union (ntry points) and turns the body about it. Where that differs from
    // ClumpLab's (pebble-sum or mesh inertia), say by how much (the union's centroid by voxels).
    const MassProperties union_ = massFromVoxels(t.pebbles, 1.0, kCentroidVoxels);
    const Vec3 offset = union_.centerOfMass;
    result.figures.push_back({"center_of_mass_offset." + t.name, {offset.x(), offset.y(), offset.z()}});
    if (offset.norm() > 1e-3 * t.minPebbleRadius) {
      result.warnings.push_back(
          "templates." + t.name +
          ": LIGGGHTS-PUBLIC puts a clump's centre of mass at the Monte Carlo centroid of "
          "its pebble union, " +
          exporting::vec(offset) + " m (principal frame, a " + std::to_string(kCentroidVoxels) +
          "^3 voxel estimate) from ClumpLab's; bodies turn about that point there (mass and moments are "
          "ClumpLab's)");
    }
    const double density = t.density > 0.0 ? t.density : 1000.0;
    out << "fix tpl" << k + 1 << " all particletemplate/multisphere " << seeds.next()
        << " atom_type 1 density constant " << exporting::number(density) << " nspheres " << t.pebbles.size()
        << " ntry 1000000 spheres file " << file << " scale 1 type " << k + 1 << " mass "
        << exporting::number(t.mass) << " inertia_tensor " << exporting::number(t.principalMoments.x())
        << " 0 0 " << exporting::number(t.principalMoments.y()) << " 0 "
        << exporting::number(t.principalMoments.z()) << " use_volume   # " << t.name << "\n"
        << "fix pdd" << k + 1 << " all particledistribution/discrete " << seeds.next() << " 1 tpl" << k + 1
        << " 1.0\n";
  }
}

// Each body inserted alone in a small cube around its centre of mass, with its exact orientation and
// velocities.
void writeBodies(std::ostream& out, const BodyState& bodies, const std::vector<int>& typeOf,
                 PrimeSeeds& seeds, ExportResult& result) {
  out << "\n# Bodies. LIGGGHTS-PUBLIC inserts multisphere bodies only through its insertion fixes, at a\n"
         "# random point of a region whose volume must be at least 1e-10 m^3: each body is inserted alone\n"
         "# in a cube of edge "
      << exporting::number(kInsertionCube)
      << " m centred on its centre of mass, with its exact orientation,\n"
         "# velocity and angular velocity. The centre of mass lands within half that edge of ClumpLab's.\n";
  if (bodies.size() > 0)
    result.warnings.push_back(
        "bodies: LIGGGHTS-PUBLIC places a multisphere body at a random point of an insertion "
        "region of at least 1e-10 m^3; each centre of mass lands within " +
        exporting::number(0.5 * kInsertionCube) +
        " m of its position on every axis (orientations, velocities and angular velocities "
        "are exact)");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Vec3 x = bodies.position[b];
    const Quat q = bodies.orientation[b];
    const double h = 0.5 * kInsertionCube;
    out << "region ins" << b << " block " << exporting::number(x.x() - h) << " "
        << exporting::number(x.x() + h) << " " << exporting::number(x.y() - h) << " "
        << exporting::number(x.y() + h) << " " << exporting::number(x.z() - h) << " "
        << exporting::number(x.z() + h) << " units box\n"
        << "fix ins" << b << " all insert/pack seed " << seeds.next() << " distributiontemplate pdd"
        << typeOf[bodies.templateIndex[b]] << " vel constant " << exporting::vec(bodies.velocity[b])
        << " omega constant " << exporting::vec(bodies.angularVelocity[b]) << " orientation constant "
        << exporting::number(q.w()) << " " << exporting::number(q.x()) << " " << exporting::number(q.y())
        << " " << exporting::number(q.z()) << " insert_every once overlapcheck no all_in no region ins" << b
        << " particles_in_region 1 ntry_mc 10000\n";
  }
}

// The deck's setup: atoms, the domain, the contact law, the time step, gravity and the plane walls.
void writeSetup(std::ostream& out, const Scene& scene, const DeckDomain& domain, const DeckContact& contact,
                const std::vector<std::string>& wallLines) {
  out << "atom_style sphere\natom_modify map array sort 0 0\nboundary " << domain.boundary
      << "\nnewton off\ncommunicate single vel yes\nunits si\n"
      << "region domain block " << exporting::number(domain.box.min().x()) << " "
      << exporting::number(domain.box.max().x()) << " " << exporting::number(domain.box.min().y()) << " "
      << exporting::number(domain.box.max().y()) << " " << exporting::number(domain.box.min().z()) << " "
      << exporting::number(domain.box.max().z()) << " units box\ncreate_box 2 domain\n"
      << "neighbor " << exporting::number(domain.skin) << " bin\nneigh_modify delay 0\n\n# Contact law ("
      << scene.file << ": contact)\n";
  // LIGGGHTS refuses a Young's modulus below 5 MPa in SI units unless told the particles are soft.
  if (contact.young > 0.0 && contact.young < 5e6) out << "soft_particles yes\n";
  for (const std::string& line : contact.material) out << line << "\n";
  out << "pair_style gran model " << contact.model << contact.settings << "\npair_coeff * *\n\ntimestep "
      << exporting::number(scene.model.settings.timeStep) << "\n";
  const Vec3 g = scene.model.settings.gravity;
  if (g.norm() > 0.0)
    out << "fix gravity all gravity " << exporting::number(g.norm()) << " vector "
        << exporting::vec(g / g.norm()) << "\n";
  out << "\n# Walls\n";
  for (std::size_t w = 0; w < wallLines.size(); ++w) {
    out << "fix wall" << w << " all wall/gran model " << contact.model << " primitive type 2 " << wallLines[w]
        << contact.settings << "\n";
  }
}

// After the bodies: the integration, the inserting first step, mesh motion, inlets, the dumps and the run.
void writeRun(std::ostream& out, const Scene& scene, const ExportRun& run, std::size_t bodyCount,
              const std::vector<std::string>& meshMotionLines, const std::vector<std::string>& inletLines) {
  out << "fix integrate all multisphere\n"
      << "compute rke all erotate/multisphere\n"
      << "thermo_style custom step atoms ke c_rke\nthermo " << run.every
      << "\nthermo_modify lost warn norm no\n\n"
         "# Step 1 inserts the bodies; the clock then restarts at 0, ClumpLab's time 0 (velocities have\n"
         "# had LIGGGHTS's first half kick)\n"
         "run 1\n";
  for (std::size_t b = 0; b < bodyCount; ++b) out << "unfix ins" << b << "\n";
  out << "reset_timestep 0\n";
  if (!meshMotionLines.empty()) {
    out << "\n# Imposed mesh motion from time 0; the meshes' triangles every output step in post/\n";
    for (const std::string& line : meshMotionLines) out << line << "\n";
    out << "dump meshes all mesh/stl " << run.every << " post/meshes_*.stl\n";
  }
  if (!inletLines.empty()) {
    out << "\n# Inlets (" << scene.file << ": inlets)\n";
    for (const std::string& line : inletLines) out << line << "\n";
  }
  out << "\n# The pebbles and every body's pose every " << run.every << " steps, for clumplab-cli import ("
      << exporting::kLiggghtsManifest << ")\n"
      << "dump pebbles all custom " << run.every << " " << exporting::kLiggghtsPebbleDump
      << " id mol type x y z vx vy vz radius\n"
      << "dump_modify pebbles sort id format \"%d %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\"\n"
      << exporting::liggghtsBodyDumpCommands(run.every) << "run " << run.steps << "\n";
}

}  // namespace

ExportResult exportLiggghts(const Scene& scene, const World& world, const std::string& folder,
                            const ExportRun& run) {
  exporting::refuseCommonUnsupported(scene, world, kEngine);
  if (scene.model.settings.localDamping > 0.0)
    exporting::refuse(scene, "damping.local", kEngine,
                      "Cundall's local damping has no counterpart there (set it to 0; Yade has it)");
  ExportResult result;
  const BodyState& bodies = world.bodies();
  if (bodies.size() == 0 && scene.inlets.empty())
    exporting::refuse(scene, "bodies", kEngine, "a deck without bodies or inlets has nothing to insert");

  // Walls: axis-aligned planes only (LIGGGHTS primitives), two-sided there, one-sided here.
  const std::vector<std::string> wallLines = wallPrimitives(scene);

  const DeckContact contact = deckContact(scene, world, result.warnings);
  const std::string& model = contact.model;
  const std::string& settings = contact.settings;
  if (scene.model.settings.integrator != IntegratorKind::Leapfrog) {
    result.warnings.push_back(
        "integrator: LIGGGHTS integrates clumps with fix multisphere (velocity Verlet), not " +
        std::string(integratorName(scene.model.settings.integrator)));
  }

  const double duration = static_cast<double>(run.steps) * scene.model.settings.timeStep;
  const exporting::LiggghtsMeshWalls meshWalls =
      exporting::mapLiggghtsMeshWalls(scene, model, settings, duration);
  const std::vector<std::uint32_t> used = templatesInDeck(scene, world);
  std::vector<int> typeOf(world.model().templates.size(), 0);
  for (std::size_t k = 0; k < used.size(); ++k) typeOf[used[k]] = static_cast<int>(k) + 1;
  PrimeSeeds seeds;
  const exporting::LiggghtsInlets inlets = exporting::mapLiggghtsInlets(
      scene, world, [&](std::uint32_t t) { return "tpl" + std::to_string(typeOf[t]); },
      [&] { return seeds.next(); });
  for (const std::string& w : inlets.warnings) result.warnings.push_back(w);

  const DeckDomain domain = deckDomain(scene, world, meshWalls.sweep, inlets.regions);
  const fs::path dir(folder);
  exporting::makeFolder(dir / "templates");
  exporting::makeFolder(dir / "post");
  for (const std::string& f : exporting::writeMeshWallFiles(scene, meshWalls.walls, dir))
    result.files.push_back(f);
  result.files.emplace_back("in.clumplab");
  std::ostringstream out;  // the deck after its heading, which lists every warning
  writeSetup(out, scene, domain, contact, wallLines);
  for (const std::string& line : meshWalls.surfaceLines) out << line << "\n";

  writeTemplates(out, used, world, dir, seeds, result);
  writeBodies(out, bodies, typeOf, seeds, result);
  writeRun(out, scene, run, bodies.size(), meshWalls.motionLines, inlets.lines);
  AtomicOutputFile deckFile = exporting::openOutput(dir / "in.clumplab");
  std::ofstream& deck = deckFile.stream();
  deck << "# LIGGGHTS-PUBLIC 3.8 deck written by clumplab-cli export from " << scene.file << "\n"
       << "# Run in this folder: mpirun -np 4 liggghts -in in.clumplab\n"
       << "# Bodies: " << bodies.size() << ", templates: " << world.model().templates.size()
       << ". Atom type 1: pebbles; type 2: walls.\n";
  for (const std::string& w : result.warnings) deck << "# APPROXIMATION " << w << "\n";
  deck << out.str();
  deckFile.commit();
  exporting::writeLiggghtsRoundTripFiles(scene, world, dir, run, typeOf, result);
  return result;
}

}  // namespace clumplab
