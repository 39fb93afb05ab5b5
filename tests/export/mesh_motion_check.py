#!/usr/bin/env python3
"""The imposed motion of a mesh wall in the LIGGGHTS export against its definition.

usage: mesh_motion_check.py CLI SCENE WORKDIR STEPS EVERY

Exports SCENE (one mesh wall with a constant-velocity motion) to LIGGGHTS, runs it under
`mpirun -np 2`, and compares the triangles LIGGGHTS dumps (post/meshes_<step>.stl, 6 digits) with
ClumpLab's motion (MeshWall.hpp): x(t) = c + v t + R(w t)(x0 - c), x0 the exported STL (time 0),
R(w t) the turn by |w| t about w (Rodrigues' formula). Exits 1 with the numbers if they differ.
"""
import json, math, os, re, shutil, subprocess, sys

from check_support import fail, run


def triangles(path):
    """The vertices of an ASCII STL, in threes."""
    with open(path) as f:
        v = [[float(x) for x in m.groups()] for m in re.finditer(r'vertex\s+(\S+)\s+(\S+)\s+(\S+)', f.read())]
    return [v[i:i + 3] for i in range(0, len(v), 3)]


def rotate(axis_angle, x):
    angle = math.sqrt(sum(a * a for a in axis_angle))
    if angle == 0.0:
        return list(x)
    k = [a / angle for a in axis_angle]
    c, s = math.cos(angle), math.sin(angle)
    kx = [k[1] * x[2] - k[2] * x[1], k[2] * x[0] - k[0] * x[2], k[0] * x[1] - k[1] * x[0]]
    kd = sum(a * b for a, b in zip(k, x))
    return [x[i] * c + kx[i] * s + k[i] * kd * (1 - c) for i in range(3)]


def main():
    cli, scene, work, steps, every = sys.argv[1:6]
    steps, every = int(steps), int(every)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    folder = os.path.join(work, 'liggghts')
    exported = json.loads(run([cli, 'export', scene, '--to', 'liggghts', '--out', folder, '--steps', str(steps),
                               '--every', str(every)]))
    with open(scene) as f:
        motion = json.load(f)['walls'][0]['motion']
    v, w = motion.get('linear', [0, 0, 0]), motion.get('angular', [0, 0, 0])
    c = motion['center']
    command = ['mpirun', '-np', '2', '--oversubscribe']
    if os.geteuid() == 0:
        command.append('--allow-run-as-root')
    run(command + ['liggghts', '-in', 'in.clumplab'], cwd=folder)
    start = triangles(os.path.join(folder, 'meshes', 'wall0.stl'))
    worst, travel = 0.0, 0.0
    for step in range(0, steps + 1, every):
        t = step * exported['time_step']
        dumped = triangles(os.path.join(folder, 'post', 'meshes_%d.stl' % step))
        if len(dumped) != len(start):
            fail('t = %g: LIGGGHTS dumped %d triangles, the export wrote %d' % (t, len(dumped), len(start)))
        expected = [[[c[i] + v[i] * t + r[i] for i in range(3)]
                     for r in (rotate([a * t for a in w], [x0[i] - c[i] for i in range(3)]) for x0 in tri)]
                    for tri in start]
        # LIGGGHTS may list the triangles in another order: match each by its nearest expected one.
        for tri in dumped:
            best = min(max(abs(a - b) for p, q in zip(tri, e) for a, b in zip(p, q)) for e in expected)
            worst = max(worst, best)
        travel = max(travel, max(abs(a - b) for e, s in zip(expected, start) for p, q in zip(e, s)
                                 for a, b in zip(p, q)))
    # The dump has 6 significant digits: 1e-7 m on a 2 cm mesh is ten times its rounding.
    tolerance = 1e-7
    print('mesh motion over %g s (vertices travel up to %.3g m): largest vertex difference %.3e m, tolerance %.0e m'
          % (steps * exported['time_step'], travel, worst, tolerance))
    if worst > tolerance:
        fail('LIGGGHTS moves the mesh differently from ClumpLab')
    print('PASS')


if __name__ == '__main__':
    main()
