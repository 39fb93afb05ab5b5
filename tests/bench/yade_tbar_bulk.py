# Yade 2023.02a reproduction of ClumpLab's tbar-bulk scene.
# usage (from the repository root, after apt-get install yade):
#   yade -n -x tests/bench/yade_tbar_bulk.py
# env: SCENE, STEPS, INERTIA=given|computed, WALLCN=same|zero|double, EXACT=1|0, PERTURB=<m>
import json, os, time, math
import numpy as np
from yade import utils

SCENE = os.environ.get('SCENE', 'resources/scenes/tbar-bulk.json')
STEPS = int(os.environ.get('STEPS', '20000'))
INERTIA = os.environ.get('INERTIA', 'given')   # given | computed (Yade sum of sphere volumes, COM at 3.5 mm)
WALLCN = os.environ.get('WALLCN', 'same')
PERTURB = float(os.environ.get('PERTURB', '0'))  # random initial position jitter (m), a chaos test
# WALLCN: damping of pebble-wall contacts same as pebble-pebble, ~0, or ~2x
d = json.load(open(SCENE))
ct = d['contact']
kn = ct['stiffness']; ks = kn * ct['tangential_stiffness_ratio']; cn = ct['damping']; mu = ct['friction']
assert ct.get('tangential_damping', 0.0) == 0.0
tpl = d['templates']['tbar']
peb = np.array(tpl['pebbles']); com_in = np.array(tpl['center_of_mass']); I_in = np.array(tpl['inertia_tensor'])
mass = tpl['mass']; rho = tpl['density']

# Yade combines the two materials' kn, ks, cn, cs in series: per-material value = 2x contact value.
mat = O.materials.append(ViscElMat(kn=2*kn, ks=2*ks, cn=2*cn, cs=0.0, frictionAngle=math.atan(mu), density=rho, label='peb'))
wcn = {'same': 2*cn, 'zero': 1e-30, 'double': 1e30}[WALLCN]
wmat = O.materials.append(ViscElMat(kn=2*kn, ks=2*ks, cn=wcn, cs=0.0, frictionAngle=math.atan(mu), density=rho, label='wall'))

def qmat(q):
    w, x, y, z = q; n = math.sqrt(w*w+x*x+y*y+z*z); w, x, y, z = w/n, x/n, y/n, z/n
    return np.array([[1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)],
                     [2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)],
                     [2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)]])

# Yade's non-overlapping clump algorithm weights members by sphere VOLUME (r^3). To make Yade put the
# clump reference point exactly at the given centre of mass, create the members with weights w_i such that
# sum w_i p_i / sum w_i = com_in (stem pebbles z<5mm weight 1, bar pebbles z=5mm weight a), then reset radii to 1 mm.
r0 = peb[:, 3]
bar = np.isclose(peb[:, 2], peb[:, 2].max())
zs = peb[~bar, 2].mean(); zb = peb[bar, 2].mean()
frac = (com_in[2] - zs) / (zb - zs)               # mass fraction of bar
wb = frac / (1 - frac) * (~bar).sum() / bar.sum() # weight of one bar pebble relative to a stem pebble
rad_build = np.where(bar, r0 * wb ** (1/3.), r0)
wts = rad_build**3
com_check = (wts[:, None] * peb[:, :3]).sum(0) / wts.sum()
print('weighted COM', com_check, 'given', com_in)

members = []; wn = wts / wts.sum()
clumps = []; maxoff = 0.0; maxrel = 0.0; maxposerr = 0.0
for bd in d['bodies']:
    R = qmat(bd['orientation']); X = np.array(bd['position'])
    if PERTURB: X = X + PERTURB * (np.random.RandomState(len(clumps)).rand(3) - 0.5)
    if INERTIA == 'given':
        rel = (peb[:, :3] - com_in) @ R.T; rr = rad_build
    else:
        rel = (peb[:, :3] - com_in) @ R.T; rr = r0   # same pebble placement; Yade puts its own COM at the pebble mean
    sph = [utils.sphere(tuple(X + rel[i]), rr[i], material=mat) for i in range(len(peb))]
    cid, mids = O.bodies.appendClumped(sph)
    c = O.bodies[cid]
    for i, m in enumerate(mids):
        O.bodies[m].shape.radius = r0[i]
        O.bodies[m].state.mass = mass / len(mids)   # irrelevant for dynamics (clump integrates), set for sanity
    if INERTIA == 'given':
        # Yade stores inertia diagonal in the clump's own (principal) frame c.state.ori
        Rc = np.array([[c.state.ori.toRotationMatrix()[i, j] for j in range(3)] for i in range(3)])
        Iw = R @ I_in @ R.T
        Ic = Rc.T @ Iw @ Rc
        off = np.abs(Ic - np.diag(np.diag(Ic))).max() / np.abs(np.diag(Ic)).max()
        maxoff = max(maxoff, off)
        c.state.mass = mass
        c.state.inertia = Vector3(*np.diag(Ic))
        p = np.array(c.state.pos); maxposerr = max(maxposerr, np.abs(p - X).max())
    else:
        # Yade-computed: sum of sphere volumes (overlaps double-counted); COM at mean of pebbles
        pass
    clumps.append(cid); members.append(mids)
print('clump frame: max relative off-diagonal of given inertia in Yade principal frame = %.2e; max |clump pos - given pos| = %.2e m' % (maxoff, maxposerr))
c0 = O.bodies[clumps[0]]
print('clump0 mass %.6e inertia %s pos %s' % (c0.state.mass, c0.state.inertia, c0.state.pos))

# walls: floor z=-0.006 (+z side), x=-0.008 (+x), x=0.08 (-x), y=-0.008 (+y), y=0.08 (-y)
wall_ids = []
for w in d['walls']:
    n = np.array(w['normal']); ax = int(np.argmax(np.abs(n))); sense = int(np.sign(n[ax]))
    pos = [0, 0, 0]; pos[ax] = w['point'][ax]
    wall_ids.append(O.bodies.append(utils.wall(tuple(pos), axis=ax, sense=sense, material=wmat)))
wallset = set(wall_ids)

O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()]),
    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                    [Ip2_ViscElMat_ViscElMat_ViscElPhys()],
                    [Law2_ScGeom_ViscElPhys_Basic()]),
    NewtonIntegrator(damping=0.0, gravity=tuple(d['gravity']), exactAsphericalRot=(os.environ.get('EXACT','1')=='1'), label='newton'),
]
O.dt = d['time_step']

def report(tag):
    z = np.array([O.bodies[c].state.pos[2] for c in clumps])
    zg = np.array([sum(wn[i] * O.bodies[m].state.pos[2] for i, m in enumerate(ms)) for ms in members])  # height of the GIVEN centre of mass point
    ket = ker = 0.0
    for cid in clumps:
        s = O.bodies[cid].state
        ket += 0.5 * s.mass * s.vel.squaredNorm()
        wb = s.ori.conjugate() * s.angVel
        ker += 0.5 * sum(s.inertia[i] * wb[i]**2 for i in range(3))
    nss = nsw = 0; maxov = 0.0; nreal = 0
    for I in O.interactions:
        if not I.isReal: continue
        nreal += 1
        pd = I.geom.penetrationDepth
        if pd <= 0: continue
        maxov = max(maxov, pd)
        if I.id1 in wallset or I.id2 in wallset: nsw += 1
        else: nss += 1
    print('[%s] t=%.5f mean_zGivenCOM_mm=%.5f mean_z_mm=%.5f KE_trans=%.4e KE_rot=%.4e KE=%.4e contacts_ss=%d contacts_sw=%d total=%d (real interactions %d) max_overlap_um=%.3f'
          % (tag, O.time, zg.mean()*1e3, z.mean()*1e3, ket, ker, ket+ker, nss, nsw, nss+nsw, nreal, maxov*1e6))

report('init')
t0 = time.time()
chunk = 5000
done = 0
while done < STEPS:
    n = min(chunk, STEPS - done)
    O.run(n, True); done += n
    report('step %d' % done)
print('wall seconds %.1f (INERTIA=%s WALLCN=%s EXACT=%s)' % (time.time() - t0, INERTIA, WALLCN, os.environ.get('EXACT','1')))
