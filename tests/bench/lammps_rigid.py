"""LAMMPS decks for lammps_side_by_side.py: a ClumpLab scene of pebble clumps as `fix rigid/small`.

rigid_deck(scene, folder, steps, skin) writes FOLDER/in.clumplab (and data.clumplab, bodies.rigid) for a
scene of linear-law clumps ("inertia": "given") on axis-aligned plane walls, for LAMMPS 29Sep2021
(Debian 12's `lammps`). The helpers (granular_lines: law, walls, gravity, neighbours; output_lines: the
end state; parse_final; domain; write_data) serve the sphere deck of lammps_side_by_side.py too.

The mapping:
- Every pebble is an atom (atom_style sphere, diameter 2r) of molecule = its body; `fix rigid/small
  molecule infile bodies.rigid` reads each body's mass, centre of mass and inertia tensor (the template's
  given values, turned into the world frame: I_world = R I R^T), so LAMMPS does not sum overlapping
  spheres; `neigh_modify exclude molecule/intra all` drops the pairs inside a body.
- The atoms' own masses only carry gravity (fix gravity acts per atom; the rigid fix adds up the
  forces and torques): they are set (through per-atom densities) so that a body's atoms add up to its
  mass with their centroid at its centre of mass, so gravity pulls at the centre of mass with m g and no
  torque, as in ClumpLab. The smallest change from equal masses that does this is taken (m_i = M/n +
  b.(p_i - mean p)); the writer stops if a mass would be negative. The same choice makes `compute com`
  of all atoms the mean of the bodies' centres (the bodies all have one mass here). LAMMPS's warning
  "Gravity may not be correctly applied to rigid bodies if they consist of overlapped particles" is
  answered by this (this version's rigid/small has no `gravity` keyword). A free fall checks it: after
  1000 steps KE = 1000 x 1/2 M (g t)^2 and the mean height drops 1/2 g t^2 to the digits printed, with
  rotational KE 2e-31 J.
- pair gran/hooke/history: Kn = stiffness, Kt = tangential_stiffness_ratio * stiffness (both N/m: the
  hooke styles' Kt multiplies the accumulated tangential displacement, as ClumpLab's spring does),
  gamma_n = c / m_eff with m_eff = m_a m_b / (m_a + m_b) of the two bodies (LAMMPS takes the rigid
  bodies' masses for m_eff in pairs and at walls when a rigid fix is defined), so LAMMPS's dashpot
  m_eff gamma_n is ClumpLab's fixed c; for equal bodies m_eff = m/2. Walls (fix wall/gran
  hooke/history, one fix per axis holding that axis's low and high plane; an atom meets the nearer)
  have m_eff = m, so gamma_n(wall) = c / m. gamma_t = 0 with dampflag 0 (tangential_damping 0).
- Differences left: LAMMPS caps the tangential force at mu |F_n| with F_n including the dashpot and
  taken in absolute value (ClumpLab: mu max(F_n, 0)); it projects the tangential spring onto the new
  tangent plane without keeping its length (ClumpLab keeps it); its contact point is on the sphere
  surfaces (ClumpLab: the middle of the overlap, half an overlap away); and it integrates with
  velocity Verlet (rigid/small: Richardson iteration for the quaternion), ClumpLab with its leapfrog.
- Checked on one T-bar dropped on the floor and on two T-bars colliding in zero gravity (with initial
  velocities and spin): without friction and dashpot both engines give the same kinetic energy and
  height to 6 digits through the impacts (geometry, mass, centre of mass, inertia, stiffness, initial
  velocity and angular momentum map exactly); with the dashpot or friction on, the kinetic energy left
  after an impact differs by 0.3-3% (the dashpot's timing within the step, the friction details above).
"""
import math
import os
import re

AXES = 'xyz'


def fail(message):
    raise SystemExit('lammps_side_by_side: ' + message)


def number(x):
    return '%.17g' % x


def rotation(q):
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def apply(m, v):
    return [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]


def solve3(a, b):
    """a x = b for a 3x3 a, Gaussian elimination with partial pivoting."""
    m = [list(a[i]) + [b[i]] for i in range(3)]
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(3):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [m[r][k] - f * m[c][k] for k in range(4)]
    return [m[i][3] / m[i][i] for i in range(3)]


def atom_masses(template):
    """Per-pebble masses adding up to the template's mass with their centroid at its centre of mass."""
    pebbles = [p[:3] for p in template['pebbles']]
    n = len(pebbles)
    mass = template['mass']
    com = template['center_of_mass']
    mean = [sum(p[a] for p in pebbles) / n for a in range(3)]
    q = [[p[a] - mean[a] for a in range(3)] for p in pebbles]
    scatter = [[sum(v[i] * v[j] for v in q) for j in range(3)] for i in range(3)]
    # A flat or straight template has a singular scatter; its centre of mass lies in the pebbles' span
    # (up to round-off), so a tiny regularisation finds the same answer.
    trace = scatter[0][0] + scatter[1][1] + scatter[2][2]
    for i in range(3):
        scatter[i][i] += 1e-12 * trace
    b = solve3(scatter, [mass * (com[a] - mean[a]) for a in range(3)])
    masses = [mass / n + sum(b[a] * v[a] for a in range(3)) for v in q]
    centroid = [sum(m * p[a] for m, p in zip(masses, pebbles)) / mass for a in range(3)]
    radius = min(p[3] for p in template['pebbles'])
    if min(masses) <= 0.0 or max(abs(centroid[a] - com[a]) for a in range(3)) > 1e-9 * radius:
        fail('no positive pebble masses put the centre of mass of a template at %s (pebble centroid %s)'
             % (com, mean))
    return masses


def walls_by_axis(walls):
    """{axis: [lo, hi]} from axis-aligned plane walls ("NULL" where a side has none)."""
    out = {}
    for k, w in enumerate(walls):
        n = w.get('normal', [])
        if w.get('type') != 'plane' or sorted(abs(c) for c in n) != [0, 0, 1]:
            fail('walls[%d]: LAMMPS fix wall/gran takes axis-aligned planes only' % k)
        a = [abs(c) for c in n].index(1)
        side = 0 if n[a] > 0 else 1
        pair = out.setdefault(a, ['NULL', 'NULL'])
        if pair[side] != 'NULL':
            fail('walls[%d]: two %s walls on one side' % (k, 'xyz'[a]))
        pair[side] = number(w['point'][a])
    return out


def granular_lines(contact, pair_mass, wall_mass, walls, skin, time_step, gravity):
    """The contact law, walls, gravity and neighbour settings of a linear-law ClumpLab scene."""
    if contact.get('model') != 'linear' or 'damping' not in contact:
        fail('the LAMMPS decks take the linear law with a fixed "damping" c (N s/m)')
    if contact.get('tangential_damping', 0.0) != 0.0 or contact.get('limit_damping', False):
        fail('the LAMMPS decks take tangential_damping 0 and no limit_damping')
    kn = contact['stiffness']
    kt = contact.get('tangential_stiffness_ratio', 2.0 / 7.0) * kn
    c = contact['damping']
    mu = contact.get('friction', 0.0)
    g = math.sqrt(sum(x * x for x in gravity))
    direction = [x / g for x in gravity] if g > 0 else [0, 0, -1]
    lines = [
        '# Linear spring-dashpot: Kn, Kt (N/m), gamma_n = c / m_eff (1/s), gamma_t 0, friction, dampflag 0',
        'pair_style gran/hooke/history %s %s %s 0 %s 0' % (number(kn), number(kt), number(c / pair_mass), number(mu)),
        'pair_coeff * *',
        '# Neighbour skin: ClumpLab\'s automatic Verlet skin, 0.4 x the smallest pebble radius, and the same',
        '# rule (rebuild when an atom moved half the skin, checked every step): both engines keep every pair',
        '# that can touch before the next rebuild, and neither is tuned beyond its default.',
        'neighbor %s bin' % number(skin),
        'neigh_modify delay 0 every 1 check yes',
        'timestep %s' % number(time_step),
        'fix grav all gravity %s vector %s %s %s' % (number(g), *map(number, direction)),
        '# Plane walls, one fix per axis (its low and high plane); gamma_n = c / m (a body against a wall)',
    ]
    for a, (lo, hi) in sorted(walls_by_axis(walls).items()):
        lines.append('fix w%s all wall/gran hooke/history %s %s %s 0 %s 0 %splane %s %s' % (
            AXES[a], number(kn), number(kt), number(c / wall_mass), number(mu), AXES[a], lo, hi))
    return lines


def output_lines(walls, steps, ke, erot):
    """Thermo at the end: KE (translational, rotational), mean height, pair and wall contacts."""
    touching = []
    for a, (lo, hi) in sorted(walls_by_axis(walls).items()):
        if lo != 'NULL':
            touching.append('(%s-(%s)<c_radius)' % (AXES[a], lo))
        if hi != 'NULL':
            touching.append('((%s)-%s<c_radius)' % (hi, AXES[a]))
    return [
        '# Contacts: compute contact/atom counts each overlapping pair at both atoms (pairs excluded from',
        '# the neighbour list, inside a body, are not seen); an atom touches a plane wall closer than its',
        '# radius (evaluated at the end only, as the rest of the output).',
        'compute cont all contact/atom',
        'compute pairs all reduce sum c_cont',
        'compute radius all property/atom radius',
        'variable touching atom %s' % '+'.join(touching),
        'compute wallc all reduce sum v_touching',
        'variable pair_contacts equal c_pairs/2',
        'compute com all com',
        'thermo_style custom step atoms %s %s c_com[3] v_pair_contacts c_wallc' % (ke, erot),
        'thermo_modify norm no format float %.10g',
        'thermo %d' % steps,
        'run %d' % steps,
    ]


def parse_final(log, steps):
    """(loop seconds, procs, final dict) from a LAMMPS log of output_lines' run."""
    loops = re.findall(r'Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps', log)
    main = [(float(s), int(p)) for s, p, n in loops if int(n) == steps]
    number_ = r'([-+0-9.eEnaif]+)'
    rows = re.findall(r'^\s*%d\s+(\d+)' % steps + r'\s+' + r'\s+'.join([number_] * 5) + r'\s*$', log, re.MULTILINE)
    if len(main) != 1 or not rows:
        return None
    atoms, ke, erot, height, pairs, wall = rows[-1]
    try:
        final = {'kinetic_energy': float(ke) + float(erot), 'ke_translational': float(ke),
                 'ke_rotational': float(erot), 'mean_height': float(height),
                 'pebble_contacts': int(round(float(pairs))), 'wall_contacts': int(round(float(wall))),
                 'atoms': int(atoms)}
    except ValueError:
        return None
    final['contacts'] = final['pebble_contacts'] + final['wall_contacts']
    return main[0][0], main[0][1], final


def domain(points, reach, walls, skin):
    """Box bounds: the pebbles and the walls with a margin (non-periodic, z shrink-wrapped)."""
    bounds = []
    by_axis = walls_by_axis(walls)
    for a in range(3):
        lo = min(p[a] for p in points) - reach
        hi = max(p[a] for p in points) + reach
        if a in by_axis:
            if by_axis[a][0] != 'NULL':
                lo = min(lo, float(by_axis[a][0]))
            if by_axis[a][1] != 'NULL':
                hi = max(hi, float(by_axis[a][1]))
        margin = 2 * reach + skin
        bounds.append((lo - margin, hi + margin + (10 * reach if a == 2 else 0.0)))
    return bounds


def write_data(folder, atoms, bounds, molecules):
    """FOLDER/data.clumplab: atoms (molecule, centre, radius, density), one type, with a Molecules section."""
    with open(os.path.join(folder, 'data.clumplab'), 'w') as f:
        f.write('ClumpLab scene as LAMMPS atoms (pebbles)\n\n%d atoms\n1 atom types\n\n' % len(atoms))
        for a in range(3):
            f.write('%s %s %slo %shi\n' % (number(bounds[a][0]), number(bounds[a][1]), AXES[a], AXES[a]))
        f.write('\nAtoms # sphere: id type diameter density x y z\n\n')
        for i, (body, x, radius, density) in enumerate(atoms):
            f.write('%d 1 %s %s %s %s %s\n' % (i + 1, number(2 * radius), number(density), *map(number, x)))
        if molecules:
            f.write('\nMolecules\n\n')
            for i, (body, x, radius, density) in enumerate(atoms):
                f.write('%d %d\n' % (i + 1, body))


def rigid_deck(scene, folder, steps, skin=None):
    """Writes FOLDER/in.clumplab for a scene of clumps; returns {'bodies', 'pebbles'}."""
    os.makedirs(folder, exist_ok=True)
    templates = scene['templates']
    masses = {}
    for name, t in templates.items():
        if t.get('inertia') != 'given' or 'mass' not in t:
            fail('templates.%s: the rigid deck takes "inertia": "given" (mass, center_of_mass, inertia_tensor)' % name)
        masses[name] = atom_masses(t)
    smallest = min(p[3] for t in templates.values() for p in t['pebbles'])
    skin = skin if skin is not None else 0.4 * smallest  # ClumpLab's automatic skin
    body_masses = sorted({templates[b['template']]['mass'] for b in scene['bodies']})
    if len(body_masses) != 1:
        fail('the rigid deck takes bodies of one mass (gamma_n = c / m_eff needs one m_eff)')
    m = body_masses[0]
    span = max(math.dist(p[:3], q[:3]) for t in templates.values() for p in t['pebbles'] for q in t['pebbles'])
    atoms, rigid = [], []
    for k, b in enumerate(scene['bodies']):
        t = templates[b['template']]
        r = rotation(b.get('orientation', [1, 0, 0, 0]))
        com = t['center_of_mass']
        for p, pm in zip(t['pebbles'], masses[b['template']]):
            d = apply(r, [p[a] - com[a] for a in range(3)])
            atoms.append((k + 1, [b['position'][a] + d[a] for a in range(3)], p[3],
                          pm / (4.0 / 3.0 * math.pi * p[3] ** 3)))
        inertia = t['inertia_tensor']
        world = [[sum(r[i][a] * inertia[a][c] * r[j][c] for a in range(3) for c in range(3)) for j in range(3)]
                 for i in range(3)]
        w = b.get('angular_velocity', [0, 0, 0])  # world frame, as the infile's angular momentum I w
        rigid.append((k + 1, t['mass'], b['position'], world, b.get('velocity', [0, 0, 0]), apply(world, w)))
    write_data(folder, atoms, domain([a[1] for a in atoms], smallest, scene['walls'], skin), True)
    with open(os.path.join(folder, 'bodies.rigid'), 'w') as f:
        f.write('# id mass xcm ycm zcm ixx iyy izz ixy ixz iyz vxcm vycm vzcm lx ly lz ixcm iycm izcm\n%d\n'
                % len(rigid))
        for body, mass, x, i, v, angmom in rigid:
            f.write('%d %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s 0 0 0\n' % (
                body, number(mass), *map(number, x), number(i[0][0]), number(i[1][1]), number(i[2][2]),
                number(i[0][1]), number(i[0][2]), number(i[1][2]), *map(number, v), *map(number, angmom)))
    g = scene.get('gravity', [0, 0, -9.81])
    lines = [
        '# A ClumpLab scene, %d clumps (%d pebbles) as fix rigid/small (tests/bench/lammps_rigid.py)'
        % (len(rigid), len(atoms)),
        'units si',
        'atom_style sphere',
        'atom_modify map array',
        'boundary f f m',
        '# Ghost atoms: velocities for the granular pair style; rigid/small needs a ghost cutoff beyond the',
        '# distance from a body\'s owning atom to its farthest atom (at most the widest pebble-centre span).',
        'comm_modify vel yes cutoff %s' % number(max(span, 2 * smallest) + skin),
        'fix mol all property/atom mol ghost yes',
        'read_data data.clumplab fix mol NULL Molecules',
        'neigh_modify exclude molecule/intra all',
    ]
    lines += granular_lines(scene['contact'], m / 2.0, m, scene['walls'], skin, scene['time_step'], g)
    lines += [
        '# Bodies: mass, centre of mass, world inertia tensor, velocity and angular momentum from the scene',
        '# (the gravity warning below does not apply: the atoms\' masses add up to the body\'s at its centre)',
        'fix bodies all rigid/small molecule infile bodies.rigid',
        'compute ket all ke/rigid bodies',
        'compute erot all erotate/rigid bodies',
    ]
    lines += output_lines(scene['walls'], steps, 'c_ket', 'c_erot')
    with open(os.path.join(folder, 'in.clumplab'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return {'bodies': len(rigid), 'pebbles': len(atoms), 'skin': skin}
