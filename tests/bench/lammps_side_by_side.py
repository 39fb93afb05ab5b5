#!/usr/bin/env python3
"""ClumpLab against LAMMPS (Debian 12's 29Sep2021) on the same physics, side by side on this machine.

usage (from the repository root, with lammps and openmpi-bin installed):
  python3 tests/bench/lammps_side_by_side.py [--case spheres|chute|tbars|all] [--steps N] [--runs R]
                                             [--threads 1,2] [--bed 40x30x20] [--cli PATH] [--json OUT]

Cases (the LAMMPS decks are written to a temporary folder, beside the ClumpLab scene):
- spheres: sphere_bed.py's bed (default 40 x 30 x 20 = 24 000 spheres of radius 1 mm, 5000 steps) as
  atom_style sphere atoms at the same centres (diameter 2 mm, density 2500), fix nve/sphere; pair
  gran/hooke/history with Kn = k, Kt = (k_t/k_n) k (N/m on the accumulated tangential displacement, as
  ClumpLab's spring), gamma_n = c / m_eff (LAMMPS's dashpot is m_eff gamma_n: m_eff = m/2 between
  two spheres, m at a wall, so both give ClumpLab's fixed c), gamma_t 0 (dampflag 0), friction 0.5;
  fix wall/gran hooke/history for the floor and the four side walls (gamma_n = c / m); fix gravity.
- chute: sphere_chute.py's chute (the same spheres and law, 5000 steps), periodic along and across
  the slope: boundary p p f with the box's x and y the scene's periodic box, the floor alone as a wall,
  gravity tilted 30 degrees, every atom starting at the scene's 0.2 m/s (velocity all set).
- tbars: resources/scenes/tbar-bulk.json (1000 T-bars of 10 pebbles, 20 000 steps) as fix rigid/small
  molecule with the template's given mass, centre of mass and inertia read from an infile,
  neigh_modify exclude molecule/intra all, the same law with m_eff of the bodies (lammps_rigid.py).
Both: time step 1e-5 s, the neighbour skin of ClumpLab's automatic choice (0.4 r = 0.4 mm, rebuilt when
an atom moved half of it, checked every step), comm_modify vel yes.

Each round runs, for every thread count T, LAMMPS (one process, or `mpirun -np T`) and `clumplab-cli
bench --threads T`, one after the other, so both meet the same machine load; the rounds alternate which
engine goes first. Timed: LAMMPS's "Loop time" of its run (set-up excluded) and ClumpLab's
`wall_seconds` (the timed step loop). The table gives the median of the rounds and the ratio of the
medians, ClumpLab's speed over LAMMPS's; then both engines' end states side by side: kinetic energy
(translational + rotational), contacts (pebble pairs, wall contacts) and the mean height of the sphere
centres or body centres of mass.
Exit status: 0 after a complete comparison, 1 when an engine fails or its output cannot be read.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the benchmarks
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lammps_rigid  # noqa: E402
import peer_runs  # noqa: E402
import sphere_bed  # noqa: E402
import sphere_chute  # noqa: E402

DEFAULT_STEPS = {'spheres': 5000, 'chute': 5000, 'tbars': 20000}
CASES = ['spheres', 'chute', 'tbars']
TBAR_SCENE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'resources',
                                          'scenes', 'tbar-bulk.json'))


SCRIPT = 'lammps_side_by_side'


def fail(message):
    peer_runs.fail(SCRIPT, message)


def sphere_deck(scene, folder, steps):
    """FOLDER/in.clumplab for a scene of equal spheres (sphere_bed's or sphere_chute's): one atom per
    sphere, fix nve/sphere; the scene's periodic axes periodic in LAMMPS, with its box."""
    os.makedirs(folder, exist_ok=True)
    r = sphere_bed.RADIUS
    mass = sphere_bed.sphere_mass()
    skin = 0.4 * r  # ClumpLab's automatic skin
    atoms = [(0, b['position'], r, sphere_bed.DENSITY) for b in scene['bodies']]
    bounds = lammps_rigid.domain([a[1] for a in atoms], r, scene['walls'], skin)
    periodic = scene.get('periodic')
    axes = periodic['axes'] if periodic else ''
    for a in range(3):
        if 'xyz'[a] in axes:
            bounds[a] = (periodic['min'][a], periodic['max'][a])
    velocities = {tuple(b.get('velocity', [0.0, 0.0, 0.0])) for b in scene['bodies']}
    if len(velocities) != 1 or any(b.get('angular_velocity') for b in scene['bodies']):
        fail('the sphere decks take one velocity for every sphere and no angular velocities')
    lammps_rigid.write_data(folder, atoms, bounds, False)
    boundary = ' '.join('p' if 'xyz'[a] in axes else ('m' if a == 2 else 'f') for a in range(3))
    lines = ['# %s, %d spheres (tests/bench/lammps_side_by_side.py)' % (
                 'sphere_chute.py\'s chute' if periodic else 'sphere_bed.py\'s bed', len(atoms)),
             'units si',
             'atom_style sphere',
             'boundary %s' % boundary,
             'comm_modify vel yes',
             'read_data data.clumplab']
    velocity = velocities.pop()
    if any(velocity):
        lines.append('velocity all set %s %s %s' % tuple(map(lammps_rigid.number, velocity)))
    lines += lammps_rigid.granular_lines(scene['contact'], mass / 2.0, mass, scene['walls'], skin,
                                         scene['time_step'], scene['gravity'])
    lines += ['fix integrate all nve/sphere',
              'compute ket all ke',
              'compute erot all erotate/sphere']
    lines += lammps_rigid.output_lines(scene['walls'], steps, 'c_ket', 'c_erot')
    with open(os.path.join(folder, 'in.clumplab'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return {'bodies': len(atoms), 'pebbles': len(atoms), 'skin': skin}


def run_lammps(folder, threads, steps):
    log = peer_runs.run(SCRIPT, peer_runs.ranks_command(threads, ['lmp', '-in', 'in.clumplab', '-log', 'none']),
                        cwd=folder)
    parsed = lammps_rigid.parse_final(log, steps)
    if parsed is None or parsed[1] != threads:
        fail('LAMMPS printed no "Loop time ... on %d procs for %d steps" line or no final thermo line '
             '(folder %s):\n%s' % (threads, steps, folder, '\n'.join(log.splitlines()[-15:])))
    return parsed[0], parsed[2]


def prepare(case, work, steps, bed):
    """(ClumpLab scene file, LAMMPS folder, figures) for one case."""
    folder = os.path.join(work, case)
    if case in ('spheres', 'chute'):
        scene = (sphere_bed if case == 'spheres' else sphere_chute).scene(*bed, 1)
        path = os.path.join(work, 'sphere-%s.json' % ('bed' if case == 'spheres' else 'chute'))
        with open(path, 'w') as f:
            json.dump(scene, f)
        return path, folder, dict(sphere_deck(scene, folder, steps), floor=floor_height(scene))
    with open(TBAR_SCENE) as f:
        scene = json.load(f)
    return TBAR_SCENE, folder, dict(lammps_rigid.rigid_deck(scene, folder, steps), floor=floor_height(scene))


def relative(a, b):
    return '%+.1f%%' % (100.0 * (a - b) / b) if b else 'n/a'


def floor_height(scene):
    """The height of the scene's floor (its plane wall facing up) [m]."""
    floors = [w['point'][2] for w in scene['walls'] if w['type'] == 'plane' and w['normal'][2] > 0.99]
    if not floors:
        fail('the scene has no floor')
    return max(floors)


def check_agreement(results, tolerance):
    """Fails unless every row's end states agree within `tolerance` (a fraction)."""
    for row in results:
        lf, cf = row['lammps_final'], row['clumplab_final']
        ke = abs(cf['kinetic_energy'] - lf['kinetic_energy']) / max(lf['kinetic_energy'], 1e-300)
        floor = row['floor']
        height = abs(cf['mean_height'] - lf['mean_height']) / max(lf['mean_height'] - floor, 1e-300)
        if not ke <= tolerance or not height <= tolerance:
            fail('%s, %d thread(s): the end states differ by %.3g%% in kinetic energy and %.3g%% in mean height, '
                 'more than %.3g%%' % (row['case'], row['threads'], 100 * ke, 100 * height, 100 * tolerance))
    print('End states agree within %.3g%% in every case.' % (100 * tolerance))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--case', choices=CASES + ['both', 'all'], default='all',
                        help='one case, both (spheres and tbars, as before the chute) or all')
    parser.add_argument('--steps', type=int, help='steps of every case (default: spheres, chute 5000, tbars 20000)')
    parser.add_argument('--runs', type=int, default=3, help='rounds (the medians are over these)')
    parser.add_argument('--threads', default='1,2', help='comma-separated thread / MPI rank counts')
    parser.add_argument('--bed', default='40x30x20', help='the sphere bed and chute, NXxNYxNZ spheres')
    parser.add_argument('--cli', default='build/release/app/cli/clumplab-cli')
    parser.add_argument('--json', help='write the figures to this file too')
    parser.add_argument('--agree', type=float, metavar='PERCENT',
                        help='exit 1 unless both engines\' kinetic energies agree within PERCENT and their mean '
                             'heights within PERCENT of LAMMPS\'s height above the lowest pebble centre possible '
                             '(a check of the mapping on short runs, before the piles turn chaotic)')
    args = parser.parse_args()
    try:
        threads = [int(t) for t in args.threads.split(',') if t]
        bed = [int(n) for n in args.bed.lower().split('x')]
    except ValueError:
        fail('--threads takes numbers separated by commas, --bed NXxNYxNZ')
    if (args.steps is not None and args.steps < 1) or args.runs < 1 or not threads or min(threads) < 1 \
            or len(bed) != 3 or min(bed) < 1:
        fail('--steps, --runs, --threads and --bed must be positive')
    cases = {'both': ['spheres', 'tbars'], 'all': CASES}.get(args.case, [args.case])
    for tool in ['lmp'] + (['mpirun'] if max(threads) > 1 else []):
        if shutil.which(tool) is None:
            fail('%s is not installed (apt-get install lammps openmpi-bin)' % tool)
    if not os.access(args.cli, os.X_OK):
        fail('%s is not an executable: build the release preset first (cmake --build --preset release)' % args.cli)

    work = tempfile.mkdtemp(prefix='clumplab-lammps-')
    results = []
    try:
        for case in cases:
            steps = args.steps or DEFAULT_STEPS[case]
            scene, folder, figures = prepare(case, work, steps, bed)
            print('case %s: %d bodies, %d pebbles, %d steps, %d rounds; deck in %s' % (
                case, figures['bodies'], figures['pebbles'], steps, args.runs, folder), flush=True)
            times = {(engine, t): [] for engine in ('lammps', 'clumplab') for t in threads}
            finals = {}
            for r in range(args.runs):
                for t in threads:
                    order = ('lammps', 'clumplab') if r % 2 == 0 else ('clumplab', 'lammps')
                    for engine in order:
                        if engine == 'lammps':
                            seconds, finals[('lammps', t)] = run_lammps(folder, t, steps)
                        else:
                            seconds, report = peer_runs.run_clumplab(SCRIPT, args.cli, scene, t, steps)
                            finals[('clumplab', t)] = report['final']
                            if report['pebbles'] != figures['pebbles']:
                                fail('ClumpLab has %d pebbles, the LAMMPS deck %d' % (report['pebbles'],
                                                                                     figures['pebbles']))
                        times[(engine, t)].append(seconds)
                        print('round %d  %-7s  %-8s  %d thread%s  %8.3f s' % (
                            r + 1, case, engine, t, '' if t == 1 else 's', seconds), flush=True)
            for t in threads:
                lmp = statistics.median(times[('lammps', t)])
                cl = statistics.median(times[('clumplab', t)])
                results.append({'case': case, 'scene': scene, 'steps': steps, 'pebbles': figures['pebbles'],
                                'bodies': figures['bodies'], 'threads': t, 'floor': figures['floor'],
                                'lammps_seconds': times[('lammps', t)], 'clumplab_seconds': times[('clumplab', t)],
                                'lammps_median': lmp, 'clumplab_median': cl, 'ratio': lmp / cl,
                                'lammps_final': finals[('lammps', t)], 'clumplab_final': finals[('clumplab', t)]})
        print()
        print('| case | engine | threads | median s | pebble-steps/s | ClumpLab / LAMMPS speed |')
        print('|---|---|---|---|---|---|')
        for row in results:
            label = '%d MPI ranks' % row['threads'] if row['threads'] > 1 else '1'
            work_done = row['pebbles'] * row['steps']
            print('| %s, %d steps | LAMMPS 29Sep2021 | %s | %.3g | %.3g | 1x |' % (
                row['case'], row['steps'], label, row['lammps_median'], work_done / row['lammps_median']))
            print('| %s, %d steps | ClumpLab | %d | %.3g | %.3g | %.2fx |' % (
                row['case'], row['steps'], row['threads'], row['clumplab_median'], work_done / row['clumplab_median'],
                row['ratio']))
        print()
        print('End states (LAMMPS vs ClumpLab; contacts = pebble pairs + wall contacts; mean height of the '
              'sphere centres / body centres of mass):')
        print('| case | threads | engine | kinetic energy J | contacts | pebble pairs | wall | mean height mm |')
        print('|---|---|---|---|---|---|---|---|')
        for row in results:
            for engine, final in (('LAMMPS', row['lammps_final']), ('ClumpLab', row['clumplab_final'])):
                print('| %s | %d | %s | %.4g | %d | %s | %s | %.4f |' % (
                    row['case'], row['threads'], engine, final['kinetic_energy'], final['contacts'],
                    final.get('pebble_contacts', '-'), final.get('wall_contacts', '-'), 1e3 * final['mean_height']))
            lf, cf = row['lammps_final'], row['clumplab_final']
            print('| %s | %d | ClumpLab - LAMMPS | %s | %s | | | %+.4f |' % (
                row['case'], row['threads'], relative(cf['kinetic_energy'], lf['kinetic_energy']),
                relative(cf['contacts'], lf['contacts']), 1e3 * (cf['mean_height'] - lf['mean_height'])))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'rows': results}, f, indent=1)
        if args.agree is not None:
            check_agreement(results, args.agree / 100.0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
