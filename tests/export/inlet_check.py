#!/usr/bin/env python3
"""An inlet in the LIGGGHTS export against ClumpLab's run of the same scene.

usage: inlet_check.py CLI SCENE WORKDIR STEPS EVERY

Runs SCENE (explicit bodies none, one inlet) in ClumpLab, exports it to LIGGGHTS and runs that under
`mpirun -np 2`. LIGGGHTS places the bodies at its own random points, so the bodies differ; what must
agree is the body count at every output time (within one body: LIGGGHTS inserts in batches of about
one body), the final count (exactly) and the total inserted mass (LIGGGHTS's own report of each
insertion, 7 digits). Exits 1 with the numbers if anything is off.
"""
import collections, csv, json, os, re, shutil, subprocess, sys

from check_support import fail, run, read_dump


def main():
    cli, scene, work, steps, every = sys.argv[1:6]
    steps, every = int(steps), int(every)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    states = os.path.join(work, 'states.csv')
    summary = json.loads(run([cli, 'run', scene, '--steps', str(steps), '--every', str(every), '--states',
                              states]).strip().splitlines()[-1])
    inlet = summary['inlets'][0]
    counts = collections.Counter(round(float(r['time']), 9) for r in csv.DictReader(open(states)))
    folder = os.path.join(work, 'liggghts')
    exported = json.loads(run([cli, 'export', scene, '--to', 'liggghts', '--out', folder, '--steps', str(steps),
                               '--every', str(every)]))
    print('export warnings: %s' % exported['warnings'])
    command = ['mpirun', '-np', '2', '--oversubscribe']
    if os.geteuid() == 0:
        command.append('--allow-run-as-root')
    log = run(command + ['liggghts', '-in', 'in.clumplab'], cwd=folder)
    inserted = re.findall(r'inserted (\d+) particle templates \(mass ([0-9.eE+-]+)\)', log)
    count = sum(int(n) for n, _ in inserted)
    mass = sum(float(m) for _, m in inserted)
    worst = 0
    for step in range(0, steps + 1, every):
        t = round(step * exported['time_step'], 9)
        bodies = len(read_dump(folder, step))
        print('t = %g s: ClumpLab %d bodies, LIGGGHTS %d' % (t, counts.get(t, 0), bodies))
        worst = max(worst, abs(bodies - counts.get(t, 0)))
    error = abs(mass - inlet['inserted_mass']) / inlet['inserted_mass']
    print('inserted: ClumpLab %d bodies, %.10g kg; LIGGGHTS %d bodies, %.7g kg (relative %.2e, tolerance 1e-6: '
          'LIGGGHTS prints 7 digits); count along the way off by at most %d (tolerance 1)'
          % (inlet['inserted_count'], inlet['inserted_mass'], count, mass, error, worst))
    if inlet['state'] != 'done':
        fail('the scene should let ClumpLab\'s inlet finish within the run')
    if count != inlet['inserted_count'] or error > 1e-6:
        fail('LIGGGHTS inserted another count or mass')
    if worst > 1:
        fail('LIGGGHTS inserts at another rate')
    print('PASS')


if __name__ == '__main__':
    main()
