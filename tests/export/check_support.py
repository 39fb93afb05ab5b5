"""What the end-to-end export checks share: failing with a message, running a command (its output
on failure), the rotation matrix of a unit quaternion, and reading a LIGGGHTS pebble dump."""
import os, subprocess, sys, time

import numpy


def fail(message):
    print('FAIL: ' + message)
    sys.exit(1)


def run(command, cwd=None, timeout=300, report=False):
    """Runs `command`, returns its stdout; fails with the exit code and both output tails otherwise.
    `report` prints how long it took."""
    started = time.time()
    p = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        fail('%s exited %d\n--- stdout\n%s\n--- stderr\n%s' % (' '.join(command), p.returncode, p.stdout[-3000:],
                                                              p.stderr[-3000:]))
    if report:
        print('ran %s in %.1f s' % (' '.join(command[:3]), time.time() - started))
    return p.stdout


def matrix(q):
    """The rotation matrix of a unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    return numpy.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def read_dump(folder, step):
    """{body: [pebble centres]} of the LIGGGHTS dump post/pebbles_<step>.txt (mol is the body's number + 1)."""
    with open(os.path.join(folder, 'post', 'pebbles_%d.txt' % step)) as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('ITEM: ATOMS')) + 1
    atoms = {}
    for line in lines[start:]:
        v = line.split()
        atoms.setdefault(int(v[1]) - 1, []).append([float(x) for x in v[3:6]])
    return atoms
