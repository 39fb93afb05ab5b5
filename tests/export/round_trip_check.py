#!/usr/bin/env python3
"""The round trip through an engine: a scene exported, run by LIGGGHTS under `mpirun -np 2` or by
Yade, imported back (`clumplab-cli import DIR --from liggghts|yade`), and replayed by the app.

usage: round_trip_check.py CLI APP SCENE WORKDIR STEPS EVERY liggghts|yade

Yade: every imported pose and velocity is the row of yade_bodies.csv (the same doubles).
LIGGGHTS: checks the imported trajectory against LIGGGHTS's own dumps, read here independently of
the import: every body's quaternion and angular velocity as dumped (the same doubles); every pebble of
every body, placed from the imported pose and the template in the trajectory's embedded scene, on
the dumped pebble to 1e-12 m; one fixed point of each template that LIGGGHTS turns the bodies
about (its Monte Carlo centroid), the same for every body and frame to 1e-12 m and within 1.5e-5 m
(5 sigma of LIGGGHTS's Monte Carlo) of where the export predicts it. Then `clumplab --replay
--record FOLDER` renders one picture per frame (a display is needed: CI runs the tests under
xvfb-run), each of which must show the bodies (not a blank view).
"""
import json, os, shutil, struct, subprocess, sys

import numpy

from check_support import fail, run, matrix


def read_trajectory(path):
    """(scene, template keys, frames) of a clumplab-trajectory/1 file (docs/formats.md)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'CLTRAJ1\n':
        fail('%s is no trajectory' % path)
    at = 8
    (n,) = struct.unpack_from('<Q', data, at)
    at += 8
    scene = json.loads(data[at:at + n].decode())
    at += n
    (count,) = struct.unpack_from('<I', data, at)
    at += 4
    keys = []
    for _ in range(count):
        (length,) = struct.unpack_from('<I', data, at)
        keys.append(data[at + 4:at + 4 + length].decode())
        at += 4 + length
    frames = []
    while at < len(data):
        magic, time, step, bodies = struct.unpack_from('<IdQI', data, at)
        at += 24
        if magic != 0x314D5246:
            fail('%s: a frame without its magic at byte %d' % (path, at - 24))
        rows = []
        for _ in range(bodies):
            (template,) = struct.unpack_from('<I', data, at)
            values = struct.unpack_from('<13d', data, at + 4)
            rows.append((template, numpy.array(values)))
            at += 4 + 13 * 8
        frames.append((time, step, rows))
    return scene, keys, frames


def read_local_dump(path):
    """{id: [13 values after id and type]} of a LIGGGHTS body dump (dump local)."""
    with open(path) as f:
        lines = f.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('ITEM: ENTRIES')) + 1
    return {int(float(v.split()[0])): [float(x) for x in v.split()[2:]] for v in lines[start:] if v.strip()}


def read_pebbles(path):
    """{body id: [pebble centres in atom id order]} of a LIGGGHTS pebble dump."""
    with open(path) as f:
        lines = f.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('ITEM: ATOMS')) + 1
    out = {}
    for line in lines[start:]:
        v = line.split()
        out.setdefault(int(v[1]), []).append(numpy.array([float(x) for x in v[3:6]]))
    return out


def check_yade(folder, frames):
    """Every imported body is its row of yade_bodies.csv, to the bit."""
    rows = {}
    with open(os.path.join(folder, 'yade_bodies.csv')) as f:
        next(f)
        for line in f:
            v = [float(x) for x in line.split(',')]
            rows.setdefault(v[0], []).append(numpy.array(v[2:]))
    if sorted(rows) != [time for time, _, _ in frames]:
        fail('imported times %s, Yade wrote %s' % ([t for t, _, _ in frames], sorted(rows)))
    worst = max(numpy.abs(v - rows[time][b]).max() for time, _, bodies in frames for b, (_, v) in enumerate(bodies))
    print('every imported pose and velocity against yade_bodies.csv: largest difference %.1e (must be 0)' % worst)
    if worst != 0.0:
        fail('the imported trajectory differs from what Yade wrote')


def main():
    cli, app, scene_file, work, steps, every, engine = sys.argv[1:8]
    steps, every = int(steps), int(every)
    tools = ('mpirun', 'liggghts') if engine == 'liggghts' else ('yade',)
    for tool in tools:
        if shutil.which(tool) is None:
            fail('%s is not installed (apt-get install liggghts openmpi-bin yade)' % tool)
    shutil.rmtree(work, ignore_errors=True)
    folder = os.path.join(work, engine)
    exported = json.loads(run([cli, 'export', scene_file, '--to', engine, '--out', folder, '--steps', str(steps),
                               '--every', str(every)]))
    if engine == 'liggghts':
        command = ['mpirun', '-np', '2', '--oversubscribe']
        if os.geteuid() == 0:
            command.append('--allow-run-as-root')
        run(command + ['liggghts', '-in', 'in.clumplab'], cwd=folder, timeout=900, report=True)
    else:
        run(['yade', '-n', '-x', 'clumplab_yade.py'], cwd=folder, timeout=900, report=True)
    trajectory = os.path.join(work, 'run.cltraj')
    summary = json.loads(run([cli, 'import', folder, '--from', engine, '--out', trajectory], report=True))
    print('import: %s' % json.dumps(summary))
    if summary['frames'] != steps // every + 1 or summary['most_bodies'] != exported['bodies']:
        fail('imported %d frames of %d bodies, expected %d of %d' % (summary['frames'], summary['most_bodies'],
                                                                      steps // every + 1, exported['bodies']))
    scene, keys, frames = read_trajectory(trajectory)
    if engine == 'yade':
        check_yade(folder, frames)
    else:
        check_liggghts(exported, folder, scene, keys, frames, every)
    check_replay(app, trajectory, work, len(frames))
    print('PASS')


def check_liggghts(exported, folder, scene, keys, frames, every):
    pebbles_of = [numpy.array([p[:3] for p in scene['templates'][key]['pebbles']]) for key in keys]
    dt = exported['time_step']
    worst_q = worst_w = worst_pebble = 0.0
    turning = {}  # template: [R^T (x_cm - x) of every body and frame]
    for time, step, rows in frames:
        if abs(time - step * dt) > 1e-15 or step % every:
            fail('frame at step %d has time %r' % (step, time))
        bodies = read_local_dump(os.path.join(folder, 'post', 'bodies_%d.txt' % step))
        pebbles = read_pebbles(os.path.join(folder, 'post', 'pebbles_%d.txt' % step))
        if len(bodies) != len(rows):
            fail('step %d: %d bodies dumped, %d imported' % (step, len(bodies), len(rows)))
        # LIGGGHTS inserts the exported bodies in the scene's order: its body id is the index + 1.
        for b, (template, v) in enumerate(rows):
            dumped = bodies[b + 1]
            q, w = v[3:7], v[10:13]
            worst_q = max(worst_q, numpy.abs(q - dumped[3:7]).max())
            worst_w = max(worst_w, numpy.abs(w - dumped[10:13]).max())
            r = matrix(q)
            placed = v[0:3] + pebbles_of[template] @ r.T
            worst_pebble = max(worst_pebble, max(numpy.linalg.norm(p - d) for p, d in zip(placed, pebbles[b + 1])))
            turning.setdefault(template, []).append(r.T @ (numpy.array(dumped[0:3]) - v[0:3]))
    print('quaternions: largest difference to the dump %.1e; angular velocities %.1e (both must be 0: the '
          'same doubles)' % (worst_q, worst_w))
    print('pebbles placed from the imported poses: largest distance to the dumped ones %.2e m (tolerance '
          '1e-12 m)' % worst_pebble)
    if worst_q != 0.0 or worst_w != 0.0:
        fail('the imported orientations or angular velocities differ from the dump')
    if worst_pebble > 1e-12:
        fail('the imported poses do not put the pebbles where LIGGGHTS has them')
    for template, points in turning.items():
        points = numpy.array(points)
        spread = numpy.abs(points - points.mean(axis=0)).max()
        predicted = numpy.array(exported['figures']['center_of_mass_offset.' + keys[template]])
        off = numpy.abs(points.mean(axis=0) - predicted).max()
        print('template %s: LIGGGHTS turns its %d body-frames about %s m (spread %.1e m, tolerance 1e-12); the '
              'export predicted %s m: %.1e m apart (tolerance 1.5e-5 m)' % (
                  keys[template], len(points), numpy.array2string(points.mean(axis=0), precision=3), spread,
                  numpy.array2string(predicted, precision=3), off))
        if spread > 1e-12:
            fail('LIGGGHTS does not turn the bodies of %s about one point' % keys[template])
        if off > 1.5e-5:
            fail('LIGGGHTS turns %s about a point the export did not predict' % keys[template])



def check_replay(app, trajectory, work, frame_count):
    """The app replays the trajectory and renders one picture per frame, each showing the bodies."""
    pictures = os.path.join(work, 'replay')
    run([app, '--replay', trajectory, '--record', pictures, '--fps', '10', '--size', '320x180', '--quit'],
        timeout=300, report=True)
    import matplotlib.image
    frames_png = sorted(f for f in os.listdir(pictures) if f.endswith('.png'))
    if len(frames_png) < frame_count:
        fail('the replay rendered %d pictures for %d frames' % (len(frames_png), frame_count))
    for name in frames_png:
        image = matplotlib.image.imread(os.path.join(pictures, name))
        # The background is a smooth gradient: clumps make the picture's colours vary far more.
        spread = float(image[..., :3].std())
        if spread < 0.02:
            fail('replay picture %s looks blank (colour spread %.3f)' % (name, spread))
    print('replay: %d pictures of %s' % (len(frames_png), pictures))


if __name__ == '__main__':
    main()
