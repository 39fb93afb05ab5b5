#!/usr/bin/env python3
"""A million pebbles: tbar-bulk widened to 100 x 100 x 10 T-bars (100 000 bodies), against tbar-bulk.

usage (from the repository root, after a release build):
  python3 tests/bench/tbar_million.py [--steps N] [--threads T] [--side K] [--cli PATH]

The wide scene is tbar-bulk's own lattice (8 mm, the same layer count, template, contact law, time
step and floor) continued to K x K columns (K = 100 by default; tbar-bulk is K = 10), with random
orientations and the side walls moved out. Both scenes run the same number of steps, so they go
through the same phases (the fall, the first impacts, the pile), one after the other under
`/usr/bin/time -v` (tbar-bulk three times, before and after, the median kept). Printed: pebble-steps/s of each, their ratio (the wide scene's per pebble against
tbar-bulk's), and the wide run's peak resident memory.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile


def fail(message):
    print('tbar_million: ' + message, file=sys.stderr)
    sys.exit(1)


def random_quaternion(rng):
    while True:
        q = [rng.gauss(0.0, 1.0) for _ in range(4)]
        n = math.sqrt(sum(c * c for c in q))
        if n > 1e-6:
            return [c / n for c in q]


def rotate(q, v):
    w, x, y, z = q
    # v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
    cx = y * v[2] - z * v[1]
    cy = z * v[0] - x * v[2]
    cz = x * v[1] - y * v[0]
    return [v[0] + 2 * (w * cx + y * cz - z * cy), v[1] + 2 * (w * cy + z * cx - x * cz),
            v[2] + 2 * (w * cz + x * cy - y * cx)]


def wide_scene(base, side, seed):
    scene = dict(base)
    layers = sorted({round(b['position'][2], 9) for b in base['bodies']})
    spacing = 0.008
    scene['description'] = ('tbar-bulk widened to %d x %d x %d T-bars (tests/bench/tbar_million.py)'
                            % (side, side, len(layers)))
    rng = random.Random(seed)
    name = base['bodies'][0]['template']
    template = base['templates'][name]
    com = template['center_of_mass']
    # Pebbles relative to the body position (the centre of mass), as a scene places them.
    local = [[p[0] - com[0], p[1] - com[1], p[2] - com[2]] for p in template['pebbles']]
    contact = 2.0 * max(p[3] for p in template['pebbles']) * 1.05
    placed = {}  # lattice index -> world pebble centres
    bodies = []
    for k, z in enumerate(layers):
        for i in range(side):
            for j in range(side):
                centre = [i * spacing, j * spacing, z]
                near = [placed[key] for key in ((k - a, i - b, j - c) for a in (0, 1) for b in (-1, 0, 1)
                                                for c in (-1, 0, 1)) if key in placed]
                # Random orientations, drawn again while a pebble would touch an earlier neighbour's.
                for attempt in range(1000):
                    q = random_quaternion(rng)
                    mine = [[c + d for c, d in zip(centre, rotate(q, p))] for p in local]
                    if all((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2 >= contact * contact
                           for other in near for a in mine for b in other):
                        break
                else:
                    fail('no free orientation for the T-bar at %s' % centre)
                placed[(k, i, j)] = mine
                bodies.append({'template': name, 'position': centre, 'orientation': q})
    scene['bodies'] = bodies
    far = side * spacing
    walls = []
    for w in base['walls']:
        w = json.loads(json.dumps(w))
        # The side walls at the far end (x = 0.08 and y = 0.08 in tbar-bulk) move out with the lattice.
        if w['type'] == 'plane' and w['normal'][0] < 0:
            w['point'][0] = far
        if w['type'] == 'plane' and w['normal'][1] < 0:
            w['point'][1] = far
        walls.append(w)
    scene['walls'] = walls
    return scene


def bench(cli, scene, steps, threads):
    command = ['/usr/bin/time', '-v', cli, 'bench', scene, '--steps', str(steps), '--threads', str(threads)]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        fail('%s exited with %d:\n%s' % (' '.join(command), result.returncode, result.stderr[-2000:]))
    report = json.loads(result.stdout.strip().splitlines()[-1])
    rss = re.search(r'Maximum resident set size \(kbytes\): (\d+)', result.stderr)
    report['max_rss_mb'] = int(rss.group(1)) / 1024.0 if rss else float('nan')  # MiB
    report['max_rss_bytes'] = int(rss.group(1)) * 1024 if rss else float('nan')
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--steps', type=int, default=6000)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--side', type=int, default=100, help='T-bars along x and y (tbar-bulk: 10)')
    parser.add_argument('--base', default='resources/scenes/tbar-bulk.json')
    parser.add_argument('--cli', default='build/release/app/cli/clumplab-cli')
    args = parser.parse_args()
    if not os.access(args.cli, os.X_OK):
        fail('%s is not an executable: build the release preset first' % args.cli)
    if not os.access('/usr/bin/time', os.X_OK):
        fail('/usr/bin/time is missing (apt-get install time)')
    base = json.load(open(args.base))
    with tempfile.TemporaryDirectory(prefix='clumplab-million-') as work:
        path = os.path.join(work, 'tbar-wide.json')
        with open(path, 'w') as f:
            json.dump(wide_scene(base, args.side, 20), f)
        # tbar-bulk is short: three runs around the wide one, the median taken.
        smalls = [bench(args.cli, args.base, args.steps, args.threads)]
        wide = bench(args.cli, path, args.steps, args.threads)
        smalls += [bench(args.cli, args.base, args.steps, args.threads) for _ in range(2)]
        small = sorted(smalls, key=lambda r: r['wall_seconds'])[1]
    for name, r in (('tbar-bulk', small), ('wide', wide)):
        print('%-9s  %8d pebbles  %7.1f s  %.3g pebble-steps/s  peak %.0f MiB  rebuilds %d  contacts %d%s' %
              (name, r['pebbles'], r['wall_seconds'], r['pebble_steps_per_second'], r['max_rss_mb'],
               r['neighbor_rebuilds'], r['final']['contacts'],
               '  DIVERGED: ' + r['diverged'] if r.get('diverged') else ''))
    for name, r in (('tbar-bulk', small), ('wide', wide)):
        print('%-9s  stage seconds %s' % (name, ', '.join('%s %.2f' % (k, v) for k, v in r['stage_seconds'].items())))
    print('per pebble-step, wide / tbar-bulk: %.2fx; wide peak memory %.0f MiB, %.0f bytes per pebble (%d steps, '
          '%d thread%s)' %
          (wide['pebble_steps_per_second'] / small['pebble_steps_per_second'], wide['max_rss_mb'],
           wide['max_rss_bytes'] / wide['pebbles'], args.steps, args.threads, '' if args.threads == 1 else 's'))


if __name__ == '__main__':
    main()
