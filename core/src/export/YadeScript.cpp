// Yade 2023 script for a scene (SceneExport.hpp). The mapping:
//   linear contact -> ViscElMat + Law2_ScGeom_ViscElPhys_Basic. Yade puts the two materials' kn, ks,
//                     cn, cs in series, so each material gets twice the contact's value; with
//                     "restitution" the pair dashpot 2 gamma sqrt(m_eff k) needs m_eff = m/2 between
//                     bodies and m against walls: the wall material's cn is chosen so that the
//                     series value is the wall's (exact for one body mass, else a warning);
//   axis-aligned planes, boxes -> utils.wall(position, axis, sense) facing the allowed side;
//   mesh walls       -> fixed facets and kinematic engines (YadeMeshWalls.hpp);
//   inlets           -> refused: Yade's SpheresFactory (BoxFactory, CircularFactory) makes single
//                       spheres, not clumps;
//   clumps           -> O.bodies.appendClumped of the pebbles, built so that Yade's clump node is
//                       ClumpLab's centre of mass and its axes ClumpLab's principal axes: the pebbles
//                       are created 1e-6 times their radius (so their volumes weigh nothing) together
//                       with six heavy "ghost" spheres in pairs along the principal axes (three
//                       distinct masses, so the principal axes of the sum are those axes), which
//                       never collide (groupMask 0, no bound); then the radii are restored and the
//                       clump's mass and principal moments set to ClumpLab's.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "ExportChecks.hpp"
#include "RoundTripFiles.hpp"
#include "YadeMeshWalls.hpp"
#include "core/export/SceneExport.hpp"
#include "core/world/World.hpp"

namespace clumplab {

namespace fs = std::filesystem;

namespace {

std::string tuple3(const Vec3& v) {
  std::string s = "(";
  s += exporting::number(v.x());
  s += ", ";
  s += exporting::number(v.y());
  s += ", ";
  s += exporting::number(v.z());
  s += ")";
  return s;
}

// What the export does not map, refused with the reason.
void refuseUnmapped(const Scene& scene, const std::string& engine) {
  if (scene.model.contact.kind == ContactModel::Kind::Hertz)
    exporting::refuse(
        scene, "contact.model", engine,
        "Mutze's Hertz law (hysteresis, regularised friction) is not mapped to Yade's Hertz-Mindlin; "
        "use a linear contact or the LIGGGHTS export");
  if (scene.model.contact.kind == ContactModel::Kind::HertzMindlin)
    exporting::refuse(scene, "contact.model", engine,
                      "hertz-mindlin is not mapped to Yade's MindlinPhys yet (its damping from the "
                      "restitution differs from LIGGGHTS's); use the LIGGGHTS export, which takes the "
                      "material card as it is");
  if (scene.model.settings.periodic.any())
    exporting::refuse(scene, "periodic", engine, "periodic cells are not mapped to Yade's O.periodic yet");
  if (!scene.inlets.empty())
    exporting::refuse(
        scene, "inlets", engine,
        "Yade has no clump inlet: its SpheresFactory (BoxFactory, CircularFactory) inserts single "
        "spheres only (use the LIGGGHTS export, whose fix insert/rate/region inserts clumps)");
}

// Plane walls as (position, axis, sense) tuples (utils.wall); mesh walls are mapped apart
// (YadeMeshWalls.hpp).
std::vector<std::string> wallTuples(const Scene& scene, const std::string& engine) {
  std::vector<std::string> walls;
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    const Wall& wall = scene.model.walls[w];
    const std::string path = "walls[" + std::to_string(w) + "]";
    if (wall.kind == Wall::Kind::Mesh) continue;  // YadeMeshWalls.hpp
    if (wall.kind == Wall::Kind::SphereCavity)
      exporting::refuse(scene, path, engine, "a spherical cavity has no Yade wall primitive");
    if (wall.kind != Wall::Kind::Plane) exporting::refuse(scene, path, engine, "only plane walls are mapped");
    const int axis = exporting::axisOf(wall.normal);
    if (axis < 0)
      exporting::refuse(
          scene, path, engine,
          "only planes normal to x, y or z map to utils.wall; this one's normal is " + tuple3(wall.normal));
    std::string line = "(";
    line += exporting::number(wall.point[axis]);
    line += ", " + std::to_string(axis);
    line += wall.normal[axis] > 0.0 ? ", 1)" : ", -1)";
    walls.push_back(line);
  }
  return walls;
}

// The normal dashpots of the two materials: Yade puts the two materials of a contact in series
// (1/c = 1/c1 + 1/c2), so pebbles get 2 c_pair and walls what makes c_wall.
struct YadeDashpots {
  double pebbleMaterial = 0.0;  // [N s/m]
  double wallMaterial = 0.0;    // [N s/m]
};

YadeDashpots normalDashpots(const LinearContactParameters& p, const BodyState& bodies,
                            std::vector<std::string>& warnings) {
  double massSum = 0.0, massMin = 0.0, massMax = 0.0;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    massSum += bodies.mass[b];
    massMin = b ? std::min(massMin, bodies.mass[b]) : bodies.mass[b];
    massMax = b ? std::max(massMax, bodies.mass[b]) : bodies.mass[b];
  }
  const double massMean = bodies.size() ? massSum / static_cast<double>(bodies.size()) : 1.0;
  // Contact values (what a pair feels) for body-body and body-wall contacts.
  double cnPair = p.damping, cnWall = p.damping;
  if (p.dampingFromRestitution) {
    const double gamma = dampingRatioForRestitution(p.restitution);
    cnPair = 2.0 * gamma * std::sqrt(0.5 * massMean * p.stiffness);
    cnWall = 2.0 * gamma * std::sqrt(massMean * p.stiffness);
    if (massMax > massMin * (1.0 + 1e-12)) {
      warnings.push_back(
          "contact.restitution: Yade's ViscEl dashpots are fixed per material; they give "
          "ClumpLab's 2 gamma sqrt(m_eff k) for bodies of the mean mass " +
          exporting::number(massMean) + " kg only (masses range " + exporting::number(massMin) + " to " +
          exporting::number(massMax) + " kg)");
    }
  }
  const double pebbleMaterial = 2.0 * cnPair;
  return {pebbleMaterial, cnPair > 0.0 ? cnWall * pebbleMaterial / (pebbleMaterial - cnWall) : 0.0};
}

// The templates, the bodies and the plane walls as the script's data.
void writeData(std::ostream& out, const World& world, const std::vector<std::string>& walls,
               const std::string& meshes) {
  const BodyState& bodies = world.bodies();
  out << "# Templates in the principal frame: name, mass [kg], principal moments [kg m^2], pebbles (x, y, z, "
         "r) [m]\n"
      << "TEMPLATES = [\n";
  for (const TemplatePtr& t : world.model().templates) {
    out << "  ('" << t->name << "', " << exporting::number(t->mass) << ", " << tuple3(t->principalMoments)
        << ", [";
    for (const Pebble& pb : t->pebbles) {
      out << "(" << exporting::number(pb.center.x()) << ", " << exporting::number(pb.center.y()) << ", "
          << exporting::number(pb.center.z()) << ", " << exporting::number(pb.radius) << "), ";
    }
    out << "]),\n";
  }
  out << "]\n# Bodies: template index, centre of mass, orientation (w, x, y, z), velocity, angular velocity "
         "(world)\n"
      << "BODIES = [\n";
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Quat& q = bodies.orientation[b];
    out << "  (" << bodies.templateIndex[b] << ", " << tuple3(bodies.position[b]) << ", ("
        << exporting::number(q.w()) << ", " << exporting::number(q.x()) << ", " << exporting::number(q.y())
        << ", " << exporting::number(q.z()) << "), " << tuple3(bodies.velocity[b]) << ", "
        << tuple3(bodies.angularVelocity[b]) << "),\n";
  }
  out << "]\n# Walls: (position, axis, sense): the plane axis = position, bodies on the side of sense\nWALLS "
         "= [";
  for (const std::string& w : walls) out << w << ", ";
  out << "]\n# Mesh walls: (wall, triangles at time 0 [m], linear velocity, angular velocity, axis point)\n"
      << meshes << "\n";
}

// The script after its data: clumps made of the templates, walls, mesh walls with their motion, the
// engines, and the run writing yade_bodies.csv.
constexpr const char* kYadeProgram = R"PY(def rotate(q, v):
    w, x, y, z = q
    return Quaternion(w, x, y, z) * Vector3(*v)

def addClump(templateIndex, position, orientation, velocity, omega):
    name, mass, moments, pebbles = TEMPLATES[templateIndex]
    X = Vector3(*position)
    reach = max(math.sqrt(px * px + py * py + pz * pz) + r for (px, py, pz, r) in pebbles)
    spheres = [utils.sphere(X + rotate(orientation, (px, py, pz)), 1e-6 * r, material=pebbleMat)
               for (px, py, pz, r) in pebbles]
    ghosts = []
    for k, weight in enumerate((1.0, 2.0, 3.0)):
        axis = [0.0, 0.0, 0.0]
        axis[k] = reach
        for sign in (1.0, -1.0):
            g = utils.sphere(X + sign * rotate(orientation, axis), 0.25 * reach * weight ** (1.0 / 3.0),
                             material=pebbleMat)
            g.groupMask = 0
            g.bounded = False
            ghosts.append(g)
    clumpId, memberIds = O.bodies.appendClumped(spheres + ghosts)
    for i, (px, py, pz, r) in enumerate(pebbles):
        O.bodies[memberIds[i]].shape.radius = r
    c = O.bodies[clumpId]
    # Yade's clump axes are ClumpLab's principal axes in some order: give each its moment.
    R = Quaternion(*orientation).toRotationMatrix()
    Rc = c.state.ori.toRotationMatrix()
    inertia = [0.0, 0.0, 0.0]
    for k in range(3):
        axisWorld = Rc.col(k)
        inertia[k] = sum(moments[j] * (R.col(j).dot(axisWorld)) ** 2 for j in range(3))
    c.state.mass = mass
    c.state.inertia = Vector3(*inertia)
    c.state.vel = Vector3(*velocity)
    c.state.angVel = Vector3(*omega)
    # Yade integrates an aspherical body's world angular momentum: L = Rc diag(I) Rc^T omega.
    w = Vector3(*omega)
    c.state.angMom = Vector3(*[sum(Rc[i, k] * inertia[k] * Rc.col(k).dot(w) for k in range(3)) for i in range(3)])
    return clumpId, (c.state.pos - X).norm()

clumps = []
worstOffset = 0.0
for b in BODIES:
    cid, offset = addClump(*b)
    clumps.append(cid)
    worstOffset = max(worstOffset, offset)
print('clumplab: %d clumps, total mass %.17g kg, largest centre offset %.3g m' %
      (len(clumps), sum(O.bodies[c].state.mass for c in clumps), worstOffset))
for (position, axis, sense) in WALLS:
    where = [0.0, 0.0, 0.0]
    where[axis] = position
    O.bodies.append(utils.wall(tuple(where), axis=axis, sense=sense, material=wallMat))
kinematics = []
for (index, triangles, v, w, c) in MESHES:
    ids = [O.bodies.append(utils.facet([Vector3(*p) for p in corners], material=wallMat, fixed=True))
           for corners in triangles]
    v, w = Vector3(*v), Vector3(*w)
    movers = []
    if v.norm() > 0:
        movers.append(TranslationEngine(ids=ids, translationAxis=v / v.norm(), velocity=v.norm()))
    if w.norm() > 0:
        movers.append(RotationEngine(ids=ids, rotationAxis=w / w.norm(), angularVelocity=w.norm(),
                                     rotateAroundZero=True, zeroPoint=Vector3(*c)))
    if len(movers) == 2:
        kinematics.append(CombinedKinematicEngine(ids=ids, comb=movers))
    else:
        kinematics += movers

O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb(), Bo1_Facet_Aabb()]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom(), Ig2_Facet_Sphere_ScGeom()],
                    [Ip2_ViscElMat_ViscElMat_ViscElPhys()],
                    [Law2_ScGeom_ViscElPhys_Basic()]),
] + kinematics + [
    NewtonIntegrator(damping=DAMPING, gravity=GRAVITY, exactAsphericalRot=True),
]
O.dt = DT

out = open('yade_bodies.csv', 'w')
out.write('time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n')
def report():
    for i, cid in enumerate(clumps):
        s = O.bodies[cid].state
        # the clump node's frame is a permutation of the principal frame: report ClumpLab's
        q = s.ori * FRAME[i]
        out.write('%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n' % (
            O.time, i, s.pos[0], s.pos[1], s.pos[2], q[3], q[0], q[1], q[2], s.vel[0], s.vel[1], s.vel[2],
            s.angVel[0], s.angVel[1], s.angVel[2]))
# The fixed rotation from each clump node's frame to ClumpLab's principal frame.
FRAME = [O.bodies[cid].state.ori.conjugate() * Quaternion(*BODIES[i][2]) for i, cid in enumerate(clumps)]
report()
done = 0
while done < STEPS:
    n = min(EVERY, STEPS - done)
    O.run(n, True)
    done += n
    report()
out.close()
print('clumplab: ran %d steps to t = %.17g s' % (done, O.time))
)PY";

}  // namespace

ExportResult exportYade(const Scene& scene, const World& world, const std::string& folder,
                        const ExportRun& run) {
  const std::string engine = "Yade";
  exporting::refuseCommonUnsupported(scene, world, engine);
  refuseUnmapped(scene, engine);
  ExportResult result;
  const BodyState& bodies = world.bodies();
  const LinearContactParameters& p = scene.model.contact.linear;

  const std::vector<std::string> walls = wallTuples(scene, engine);
  const std::string meshes = exporting::yadeMeshWalls(scene);
  for (std::size_t w = 0; w < scene.model.walls.size(); ++w) {
    if (scene.model.walls[w].kind != Wall::Kind::Mesh) continue;
    result.warnings.push_back(
        "walls[" + std::to_string(w) +
        "]: Yade's facets each push a sphere that touches them (Ig2_Facet_Sphere_ScGeom), so a pebble on an "
        "edge or vertex shared by several triangles gets a contact from each (on a flat floor, twice the "
        "force across a diagonal); ClumpLab gives one contact per surface region (MeshWall.hpp)");
  }
  const YadeDashpots dashpots = normalDashpots(p, bodies, result.warnings);
  if (!p.limitDamping) {
    result.warnings.push_back(
        "contact.limit_damping: Yade's ViscEl law never lets the normal force pull "
        "(as \"limit_damping\": true); this scene lets the dashpot attract at the end of a contact");
  }
  if (scene.model.settings.localDamping > 0.0) {
    result.warnings.push_back(
        "damping.local: Yade's NewtonIntegrator takes each component's sign at its on-step velocity estimate "
        "v + a dt/2, ClumpLab at the velocities its integrator evaluates forces with: the runs part "
        "where a component of a velocity changes sign");
  }
  if (scene.model.settings.integrator != IntegratorKind::Leapfrog) {
    result.warnings.push_back(
        "integrator: Yade integrates with NewtonIntegrator (leap-frog, exactAsphericalRot), not " +
        std::string(integratorName(scene.model.settings.integrator)));
  }

  const fs::path dir(folder);
  exporting::makeFolder(dir);
  AtomicOutputFile outFile = exporting::openOutput(dir / "clumplab_yade.py");
  std::ofstream& out = outFile.stream();
  out << "# Yade 2023 script written by clumplab-cli export from " << scene.file << "\n"
      << "# Run in this folder: yade -n -x clumplab_yade.py   (threads: yade -j 4 -n -x ...)\n"
      << "# Writes yade_bodies.csv: time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz every EVERY steps\n"
      << "# (x: the clump node = ClumpLab's centre of mass; q: ClumpLab's principal frame -> world).\n";
  for (const std::string& w : result.warnings) out << "# APPROXIMATION " << w << "\n";
  out << "import math, os\nfrom yade import utils\n\n"
      << "STEPS = int(os.environ.get('STEPS', '" << run.steps << "'))\nEVERY = int(os.environ.get('EVERY', '"
      << run.every << "'))\n"
      << "DT = " << exporting::number(scene.model.settings.timeStep)
      << "\nGRAVITY = " << tuple3(scene.model.settings.gravity) << "\n"
      << "DAMPING = " << exporting::number(scene.model.settings.localDamping)
      << "   # Cundall's local damping, ClumpLab's damping.local\n"
      << "KN, KS = " << exporting::number(p.stiffness) << ", "
      << exporting::number(p.tangentialStiffnessRatio * p.stiffness) << "\n"
      << "CN_PEBBLE, CN_WALL = " << exporting::number(dashpots.pebbleMaterial) << ", "
      << exporting::number(dashpots.wallMaterial) << "   # per material (Yade puts two in series)\n"
      << "CS = " << exporting::number(p.tangentialDamping) << "\nFRICTION = " << exporting::number(p.friction)
      << "\n"
      << "pebbleMat = O.materials.append(ViscElMat(kn=2 * KN, ks=2 * KS, cn=CN_PEBBLE, cs=2 * CS, "
         "frictionAngle=math.atan(FRICTION), density=1000, label='pebbles'))\n"
      << "wallMat = O.materials.append(ViscElMat(kn=2 * KN, ks=2 * KS, cn=CN_WALL, cs=2 * CS, "
         "frictionAngle=math.atan(FRICTION), density=1000, label='walls'))\n\n";
  writeData(out, world, walls, meshes);
  out << kYadeProgram;
  outFile.commit();
  result.files.push_back("clumplab_yade.py");
  json_writer::OrderedJson extra;
  extra["output"] = "yade_bodies.csv";
  exporting::writeRoundTripFiles(scene, world, folder, run, "clumplab-yade.json", "clumplab-yade-export/1",
                                 extra, result);
  return result;
}

}  // namespace clumplab
