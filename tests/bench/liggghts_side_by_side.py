#!/usr/bin/env python3
"""ClumpLab against LIGGGHTS-PUBLIC 3.8.0 on the same scene, side by side on this machine.

usage (from the repository root, after the README's set-up command installed liggghts and openmpi-bin):
  python3 tests/bench/liggghts_side_by_side.py [--scene S] [--steps N] [--runs R] [--threads 1,2]
                                               [--cli PATH] [--json OUT]

The scene goes to LIGGGHTS through `clumplab-cli export --to liggghts` (multisphere bodies, the same
contact law, walls and time step). Each round runs, for every thread count T, LIGGGHTS (one process,
or `mpirun -np T`) and `clumplab-cli bench --threads T`, one after the other, so both meet the same
machine load; the rounds alternate which engine goes first. Timed: LIGGGHTS's "Loop time" of the main
run (its insertion step is a separate run and not counted) and ClumpLab's `wall_seconds` (the timed
step loop). The table gives the median of the rounds and the ratio of the medians, in pebble-steps/s.
Exit status: 0 after a complete comparison, 1 when an engine fails or its output cannot be read.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_runs  # noqa: E402


SCRIPT = 'liggghts_side_by_side'


def fail(message):
    peer_runs.fail(SCRIPT, message)


def run_liggghts(folder, threads, steps):
    log = peer_runs.run(SCRIPT, peer_runs.ranks_command(threads, ['liggghts', '-in', 'in.clumplab', '-log', 'none']),
                        cwd=folder)
    loops = re.findall(r'Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps', log)
    main = [(float(seconds), int(procs)) for seconds, procs, count in loops if int(count) == steps]
    if len(main) != 1 or main[0][1] != threads:
        fail('LIGGGHTS printed no "Loop time ... on %d procs for %d steps" line (folder %s)' % (threads, steps, folder))
    # The last thermo line: step, atoms, translational KE of the pebbles, rotational KE of the bodies.
    thermo = re.findall(r'^\s*%d\s+(\d+)\s+([0-9.eE+-]+)\s+([0-9.eE+-]+)\s*$' % steps, log, re.MULTILINE)
    kinetic = float(thermo[-1][1]) + float(thermo[-1][2]) if thermo else float('nan')
    return main[0][0], kinetic


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--scene', default='resources/scenes/tbar-bulk.json')
    parser.add_argument('--steps', type=int, default=20000)
    parser.add_argument('--runs', type=int, default=3, help='rounds (the medians are over these)')
    parser.add_argument('--threads', default='1,2', help='comma-separated thread / MPI rank counts')
    parser.add_argument('--cli', default='build/release/app/cli/clumplab-cli')
    parser.add_argument('--json', help='write the figures to this file too')
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(',') if t]
    if args.steps < 1 or args.runs < 1 or not threads or min(threads) < 1:
        fail('--steps, --runs and --threads must be positive')
    for tool in ['liggghts'] + (['mpirun'] if max(threads) > 1 else []):
        if shutil.which(tool) is None:
            fail('%s is not installed (apt-get install liggghts openmpi-bin, or run .ci/install-deps)' % tool)
    if not os.access(args.cli, os.X_OK):
        fail('%s is not an executable: build the release preset first (cmake --build --preset release)' % args.cli)

    work = tempfile.mkdtemp(prefix='clumplab-liggghts-')
    try:
        folder = os.path.join(work, 'deck')
        export = [args.cli, 'export', args.scene, '--to', 'liggghts', '--out', folder,
                  '--steps', str(args.steps), '--every', str(args.steps)]
        exported = json.loads(peer_runs.run(SCRIPT, export).strip().splitlines()[-1])
        print('scene %s: %d bodies, %d steps, %d rounds; deck in %s' % (args.scene, exported['bodies'], args.steps,
                                                                        args.runs, folder), flush=True)
        times = {(engine, t): [] for engine in ('liggghts', 'clumplab') for t in threads}
        pebbles = None
        finals = {}
        for r in range(args.runs):
            for t in threads:
                order = ('liggghts', 'clumplab') if r % 2 == 0 else ('clumplab', 'liggghts')
                for engine in order:
                    if engine == 'liggghts':
                        seconds, kinetic = run_liggghts(folder, t, args.steps)
                        finals[('liggghts', t)] = {'kinetic_energy': kinetic}
                    else:
                        seconds, report = peer_runs.run_clumplab(SCRIPT, args.cli, args.scene, t, args.steps)
                        pebbles = report['pebbles']
                        finals[('clumplab', t)] = report['final']
                    times[(engine, t)].append(seconds)
                    print('round %d  %-8s  %d thread%s  %8.3f s' % (r + 1, engine, t, '' if t == 1 else 's', seconds),
                          flush=True)
        rows = []
        print()
        print('| engine | threads | median s for %d steps | pebble-steps/s | ClumpLab / LIGGGHTS |' % args.steps)
        print('|---|---|---|---|---|')
        for t in threads:
            lig = statistics.median(times[('liggghts', t)])
            cl = statistics.median(times[('clumplab', t)])
            ratio = lig / cl
            for engine, seconds in (('LIGGGHTS-PUBLIC 3.8.0', lig), ('ClumpLab', cl)):
                label = ('%d MPI ranks' % t if t > 1 else '1') if engine.startswith('LIGGGHTS') else str(t)
                print('| %s | %s | %.2f | %.3g | %s |' % (engine, label, seconds, pebbles * args.steps / seconds,
                                                          '%.2fx' % ratio if engine == 'ClumpLab' else '1x'))
            rows.append({'threads': t, 'liggghts_seconds': times[('liggghts', t)],
                         'clumplab_seconds': times[('clumplab', t)], 'liggghts_median': lig, 'clumplab_median': cl,
                         'ratio': ratio, 'liggghts_final': finals[('liggghts', t)],
                         'clumplab_final': finals[('clumplab', t)]})
        print()
        for row in rows:
            print('%d thread(s): final kinetic energy LIGGGHTS %.3g J (pebbles + bodies\' rotation), ClumpLab %.3g J; '
                  'ClumpLab %d contacts, mean height %.4g mm' %
                  (row['threads'], row['liggghts_final']['kinetic_energy'], row['clumplab_final']['kinetic_energy'],
                   row['clumplab_final']['contacts'], 1e3 * row['clumplab_final']['mean_height']))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'scene': args.scene, 'steps': args.steps, 'pebbles': pebbles, 'rows': rows}, f, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
