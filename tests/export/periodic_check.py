#!/usr/bin/env python3
"""The periodic mapping of the LIGGGHTS export (`boundary p`) against ClumpLab.

usage: periodic_check.py CLI SCENE WORKDIR STEPS EVERY

Runs SCENE (one symmetric clump in free flight through periodic faces) in ClumpLab and, exported, in
LIGGGHTS under `mpirun -np 2`. Every pebble LIGGGHTS dumps is compared with ClumpLab's (centre of mass
plus the turned pebble offset) by the periodic image nearest to it. As in engines_check.py, the
differences are fitted by d(t) = A + B t - R(t) c: A the insertion offset (LIGGGHTS inserts a body
within a 0.51 mm cube of its position), B a velocity difference (none: no gravity, so no half
kick), c the point LIGGGHTS turns the body about (the Monte Carlo centroid of the pebble union,
here the centre of mass up to that estimate's noise); the fit's residual must be round-off. Checks that the pebbles did cross the periodic faces (a pebble wrapped:
it went out at the upper face and came back at the lower). Exits 1 with the numbers if anything is off.
"""
import csv, json, math, os, shutil, subprocess, sys

import numpy

from check_support import fail, run, matrix, read_dump


def fmt(v):
    return '[' + ', '.join('%.3e' % x for x in v) + ']'


def main():
    cli, scene, work, steps, every = sys.argv[1:6]
    steps, every = int(steps), int(every)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(scene) as f:
        spec = json.load(f)
    lower, upper = spec['periodic']['min'], spec['periodic']['max']
    axes = ['xyz'.index(a) for a in spec['periodic']['axes']]
    length = [upper[a] - lower[a] for a in range(3)]
    states = os.path.join(work, 'states.csv')
    run([cli, 'run', scene, '--steps', str(steps), '--every', str(every), '--states', states])
    rows = {round(float(r['time']), 9): {k: float(v) for k, v in r.items()} for r in csv.DictReader(open(states))}
    run([cli, 'export', scene, '--to', 'mercurydpm', '--out', os.path.join(work, 'mercury')])
    with open(os.path.join(work, 'mercury', 'dumbbell', 'Clump', 'Clump.txt')) as f:
        pebbles = [[float(x) for x in line.split(',')] for line in f if line.strip()]
    folder = os.path.join(work, 'liggghts')
    exported = json.loads(run([cli, 'export', scene, '--to', 'liggghts', '--out', folder, '--steps', str(steps),
                               '--every', str(every)]))
    deck = open(os.path.join(folder, 'in.clumplab')).read()
    boundary = ' '.join('p' if a in axes else 'm' for a in range(3))
    if 'boundary ' + boundary + '\n' not in deck:
        fail('the deck should say "boundary %s"' % boundary)
    command = ['mpirun', '-np', '2', '--oversubscribe']
    if os.geteuid() == 0:
        command.append('--allow-run-as-root')
    run(command + ['liggghts', '-in', 'in.clumplab'], cwd=folder)
    rows_fit, rhs, wrapped, previous = [], [], 0, None
    for step in range(0, steps + 1, every):
        t = round(step * exported['time_step'], 9)
        got = [p for pebbles in read_dump(folder, step).values() for p in pebbles]  # one body
        s = rows[t]
        r = matrix((s['qw'], s['qx'], s['qy'], s['qz']))
        expected = [[s[k] + sum(r[i][j] * p[j] for j in range(3)) for i, k in enumerate('xyz')] for p in pebbles]
        if len(got) != len(expected):
            fail('t = %g: %d pebbles in LIGGGHTS, %d in ClumpLab' % (t, len(got), len(expected)))
        for g in got:
            for a in axes:
                if not lower[a] <= g[a] <= upper[a]:
                    fail('t = %g: a pebble at %s is outside the periodic box' % (t, g))
        d = []
        for g, e in zip(got, expected):
            diff = [g[k] - e[k] for k in range(3)]
            for a in axes:  # the nearest periodic image
                diff[a] -= length[a] * round(diff[a] / length[a])
            d.append(diff)
        for x in d:
            for k in range(3):
                row = [0.0] * 9
                row[k], row[3 + k] = 1.0, t
                row[6:9] = [-r[k][j] for j in range(3)]
                rows_fit.append(row)
                rhs.append(x[k])
        if previous is not None:
            wrapped += sum(1 for g, p in zip(got, previous) for a in axes if abs(g[a] - p[a]) > 0.5 * length[a])
        previous = got
    a_, b_ = numpy.array(rows_fit), numpy.array(rhs)
    solution = numpy.linalg.lstsq(a_, b_, rcond=None)[0]
    residual = numpy.abs(a_ @ solution - b_).max()
    r0 = numpy.array(matrix(tuple(rows[0.0][k] for k in ('qw', 'qx', 'qy', 'qz'))))
    insertion = solution[0:3] - r0 @ solution[6:9]
    velocity, centre = solution[3:6], solution[6:9]
    print('pebbles wrapped through the periodic faces %d times; fit to ClumpLab (nearest image): residual %.3e m '
          '(tolerance 1e-9), insertion offset %s m (bound 0.000255), velocity difference %s m/s (tolerance 1e-9), '
          'turning centre %s m from the centre of mass (tolerance 1.5e-5: LIGGGHTS\'s Monte Carlo centroid)'
          % (wrapped, residual, fmt(insertion), fmt(velocity), fmt(centre)))
    if wrapped == 0:
        fail('no pebble crossed the periodic faces: the check checks nothing')
    if residual > 1e-9 or numpy.abs(velocity).max() > 1e-9:
        fail('LIGGGHTS moves the body differently through the periodic faces')
    if numpy.abs(insertion).max() > 0.000255 * (1 + 1e-6) or numpy.abs(centre).max() > 1.5e-5:
        fail('insertion offset or turning centre beyond its bound')
    print('PASS')


if __name__ == '__main__':
    main()
