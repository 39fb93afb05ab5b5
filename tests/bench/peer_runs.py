"""What the side-by-side scripts share: running a command (its output, or a clear failure),
a peer engine's command line for T MPI ranks, and `clumplab-cli bench`'s report.

Used by liggghts_side_by_side.py and lammps_side_by_side.py.
"""
import json
import os
import subprocess
import sys


def fail(script, message):
    print('%s: %s' % (script, message), file=sys.stderr)
    sys.exit(1)


def run(script, command, cwd=None):
    """The command's output; exits naming the command and its last lines when it fails. One OpenMP
    thread: the ranks and ClumpLab's --threads are the only parallelism measured."""
    env = dict(os.environ, OMP_NUM_THREADS='1')
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if result.returncode != 0:
        tail = '\n'.join(result.stdout.splitlines()[-15:])
        fail(script, '%s exited with %d in %s:\n%s' % (' '.join(command), result.returncode, cwd or os.getcwd(),
                                                        tail))
    return result.stdout


def ranks_command(threads, program):
    """`program` (a list) as one process, or under `mpirun -np T` for T > 1 ranks."""
    if threads == 1:
        return list(program)
    command = ['mpirun', '-np', str(threads), '--oversubscribe']
    if os.geteuid() == 0:
        command.append('--allow-run-as-root')
    return command + list(program)


def run_clumplab(script, cli, scene, threads, steps):
    """(wall seconds of the timed loop, the whole report) of `clumplab-cli bench`."""
    out = run(script, [cli, 'bench', scene, '--steps', str(steps), '--threads', str(threads)])
    try:
        report = json.loads(out.strip().splitlines()[-1])
        final = report['final']
        seconds = float(report['wall_seconds'])
        for key in ('kinetic_energy', 'contacts', 'mean_height'):
            float(final[key])
    except (ValueError, IndexError, KeyError, TypeError):
        fail(script, 'clumplab-cli bench printed no JSON report with wall_seconds and final figures:\n' + out[-2000:])
    if report.get('steps') != steps:
        fail(script, 'clumplab-cli bench ran %s of %d steps' % (report.get('steps'), steps))
    return seconds, report
