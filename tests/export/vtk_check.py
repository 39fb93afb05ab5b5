#!/usr/bin/env python3
"""Reads ClumpLab's ParaView output back with VTK's own XML readers.

usage: vtk_check.py CLI SCENE WORKDIR

Runs `clumplab-cli run SCENE --vtk DIR --states S.csv` and `export --to vtk` and `--to mercurydpm`,
then loads the .pvd index and every .vtu / .vtp it names with vtkXMLUnstructuredGridReader and
vtkXMLPolyDataReader and checks, at every output step, the counts and every value against the
state CSV (and the template pebbles of the MercuryDPM export): body positions, orientations,
principal axes, velocities, angular velocities and angular momenta, pebble centres, radii and
velocities, and the walls' faces. Exits 1 naming the first mismatch.
"""
import csv, json, math, os, shutil, subprocess, sys
import xml.etree.ElementTree as ET

import vtk
from vtk.util.numpy_support import vtk_to_numpy
import numpy

from check_support import fail, run, matrix

# Relative to the largest magnitude compared: the state CSV holds 12 significant digits (the VTK files
# 15 to 17, every double exactly).
TOLERANCE = 1e-10


def read(path):
    reader = vtk.vtkXMLPolyDataReader() if path.endswith('.vtp') else vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode() != 0:
        fail('VTK could not read %s' % path)
    return reader.GetOutput()


def array(data, name):
    a = data.GetPointData().GetArray(name)
    if a is None:
        fail('no point array %s' % name)
    return vtk_to_numpy(a)


def close(what, got, expected):
    got, expected = numpy.asarray(got, dtype=float), numpy.asarray(expected, dtype=float)
    if got.shape != expected.shape:
        fail('%s: shape %s, expected %s' % (what, got.shape, expected.shape))
    scale = max(1e-300, numpy.abs(expected).max(initial=0.0))
    error = numpy.abs(got - expected).max(initial=0.0) / scale
    if error > TOLERANCE:
        fail('%s: relative difference %.3e > %.0e' % (what, error, TOLERANCE))
    return error


def main():
    cli, scene, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    states_path, folder = os.path.join(work, 'states.csv'), os.path.join(work, 'vtk')
    steps, every = 400, 100
    summary = json.loads(run([cli, 'run', scene, '--steps', str(steps), '--every', str(every), '--states', states_path,
                              '--vtk', folder]))
    run([cli, 'export', scene, '--to', 'mercurydpm', '--out', os.path.join(work, 'mercury')])
    # Template pebbles (principal frame) and each body's template folder, from the MercuryDPM export.
    body_template, template_pebbles = {}, {}
    for line in open(os.path.join(work, 'mercury', 'scene.txt')):
        if line.startswith('body '):
            parts = line.split()
            body_template[int(parts[1])] = parts[2]
    for name in set(body_template.values()):
        rows = [l.split(',') for l in open(os.path.join(work, 'mercury', name, 'Clump', 'Clump.txt')) if l.strip()]
        template_pebbles[name] = numpy.array([[float(x) for x in r] for r in rows])

    states = {}
    for row in csv.DictReader(open(states_path)):
        states.setdefault(float(row['time']), []).append({k: float(v) for k, v in row.items()})
    times = sorted(states)

    collection = ET.parse(os.path.join(folder, 'clumplab.pvd')).getroot().find('Collection')
    datasets = collection.findall('DataSet')
    if len(datasets) != 3 * len(times):
        fail('the .pvd lists %d datasets, expected 3 per output step x %d steps' % (len(datasets), len(times)))
    worst = 0.0
    for k, t in enumerate(times):
        parts = {int(d.get('part')): d for d in datasets[3 * k:3 * k + 3]}
        for d in parts.values():
            close('pvd timestep %d' % k, float(d.get('timestep')), t)
        rows = sorted(states[t], key=lambda r: r['body'])
        n = len(rows)
        bodies = read(os.path.join(folder, parts[1].get('file')))
        if bodies.GetNumberOfPoints() != n or bodies.GetNumberOfCells() != n:
            fail('step %d: %d body points, %d cells, the state CSV has %d bodies' %
                 (k, bodies.GetNumberOfPoints(), bodies.GetNumberOfCells(), n))
        x = numpy.array([[r['x'], r['y'], r['z']] for r in rows])
        q = numpy.array([[r['qw'], r['qx'], r['qy'], r['qz']] for r in rows])
        v = numpy.array([[r['vx'], r['vy'], r['vz']] for r in rows])
        w = numpy.array([[r['wx'], r['wy'], r['wz']] for r in rows])
        wb = numpy.array([[r['wb1'], r['wb2'], r['wb3']] for r in rows])
        worst = max(worst, close('body positions', vtk_to_numpy(bodies.GetPoints().GetData()), x))
        worst = max(worst, close('orientation', array(bodies, 'orientation'), q))
        worst = max(worst, close('velocity', array(bodies, 'velocity'), v))
        worst = max(worst, close('angular_velocity', array(bodies, 'angular_velocity'), w))
        rot = [matrix(qq / numpy.linalg.norm(qq)) for qq in q]
        for a in range(3):
            worst = max(worst, close('axis_%d' % (a + 1), array(bodies, 'axis_%d' % (a + 1)), [r[:, a] for r in rot]))
        moments = array(bodies, 'principal_moments')
        momentum = [r @ (m * b) for r, m, b in zip(rot, moments, wb)]
        worst = max(worst, close('angular_momentum', array(bodies, 'angular_momentum'), momentum))
        names = bodies.GetFieldData().GetAbstractArray('template_names')
        if names is None or names.GetNumberOfValues() < 1:
            fail('no template_names field data')
        close('time field', bodies.GetFieldData().GetArray('time').GetValue(0), t)

        pebbles = read(os.path.join(folder, parts[0].get('file')))
        expected_x, expected_r, expected_body, expected_v = [], [], [], []
        for i in range(n):
            p = template_pebbles[body_template[i]]
            for row in p:
                offset = rot[i] @ row[:3]
                expected_x.append(x[i] + offset)
                expected_r.append(row[3])
                expected_body.append(i)
                expected_v.append(v[i] + numpy.cross(w[i], offset))
        if pebbles.GetNumberOfPoints() != len(expected_x):
            fail('step %d: %d pebbles, expected %d' % (k, pebbles.GetNumberOfPoints(), len(expected_x)))
        worst = max(worst, close('pebble centres', vtk_to_numpy(pebbles.GetPoints().GetData()), expected_x))
        worst = max(worst, close('pebble radii', array(pebbles, 'radius'), expected_r))
        worst = max(worst, close('pebble velocities', array(pebbles, 'velocity'), expected_v))
        if list(array(pebbles, 'body')) != expected_body:
            fail('pebble body ids differ')

        walls = read(os.path.join(folder, parts[2].get('file')))
        kinds = vtk_to_numpy(walls.GetCellData().GetArray('kind'))
        if walls.GetNumberOfCells() != 6 or list(kinds) != [0] * 6:
            fail('the box should be 6 plane faces, got %d cells of kinds %s' % (walls.GetNumberOfCells(), list(kinds)))
        area = 0.0
        for c in range(walls.GetNumberOfCells()):
            ids = walls.GetCell(c).GetPointIds()
            corners = [numpy.array(walls.GetPoint(ids.GetId(i))) for i in range(ids.GetNumberOfIds())]
            area += 0.5 * numpy.linalg.norm(sum(numpy.cross(corners[i], corners[(i + 1) % len(corners)])
                                                for i in range(len(corners))))
        close('box surface area', area, 2 * (0.1 * 0.1 + 0.1 * 0.06 + 0.1 * 0.06))
    print('read %d steps of %d bodies and %d pebbles back through VTK %s: largest relative difference %.2e '
          '(tolerance 1e-10, the state CSV\'s 12 digits)' % (len(times), summary['bodies'], summary['pebbles'],
                                                              vtk.vtkVersion.GetVTKVersion(), worst))
    # The initial state of `export --to vtk` is the run's first step.
    run([cli, 'export', scene, '--to', 'vtk', '--out', os.path.join(work, 'initial')])
    first = read(os.path.join(work, 'initial', 'bodies_000000.vtu'))
    close('export --to vtk body positions', vtk_to_numpy(first.GetPoints().GetData()),
          [[r['x'], r['y'], r['z']] for r in sorted(states[times[0]], key=lambda r: r['body'])])
    print('PASS')


if __name__ == '__main__':
    main()
