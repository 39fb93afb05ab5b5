#!/usr/bin/env python3
"""Writes the sphere-chute benchmark scene: equal spheres flowing down an inclined floor, periodic along
the slope and across it (issue 41's second sphere scene, beside sphere_bed.py's box).

usage: python3 tests/bench/sphere_chute.py OUT.json [--nx 40 --ny 30 --nz 20] [--seed 1]

The spheres of sphere_bed.py (radius 1 mm, density 2500 kg/m^3, the same linear spring-dashpot with
tangential history, time step 1e-5 s) start on its jittered 2.2 mm lattice, all moving at 0.2 m/s down
the slope, in a box periodic along x (down the slope) and y (across it) of exactly the lattice's
period, over a flat floor at z = 0 and nothing else. Gravity is tilted by 30 degrees: the floor is
the chute's bed, x runs down it. In 5000 steps (0.05 s) the layers land on the bed and on each other
and the whole bed slides and shears down the slope, through the periodic faces: the contact kernel's
image shifts, the periodic wrap and the broad phase across faces all take part.
lammps_side_by_side.py writes the same chute as a LAMMPS deck (boundary p p f, fix wall/gran zplane).
"""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the benchmarks
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sphere_bed  # noqa: E402

SLOPE = math.radians(30.0)
GRAVITY = [9.81 * math.sin(SLOPE), 0.0, -9.81 * math.cos(SLOPE)]  # m/s^2, x down the slope
SPEED = 0.2  # m/s, every sphere's start down the slope


def box(nx, ny, nz):
    """The periodic box: x in [0, nx s], y in [0, ny s], and z up to twice the lattice's height."""
    return [0.0, 0.0, 0.0], [nx * sphere_bed.SPACING, ny * sphere_bed.SPACING, 2.0 * nz * sphere_bed.SPACING]


def scene(nx, ny, nz, seed):
    lower, upper = box(nx, ny, nz)
    bed = sphere_bed.scene(nx, ny, nz, seed)
    bed['description'] = ('Sphere chute (tests/bench/sphere_chute.py): %d equal spheres of radius 1 mm slide and '
                          'shear down a 30 degree bed, periodic along and across the slope; run 5000 steps and '
                          'compare with LAMMPS (tests/bench/lammps_side_by_side.py --case chute).' % (nx * ny * nz))
    bed['gravity'] = GRAVITY
    bed['periodic'] = {'min': lower, 'max': upper, 'axes': 'xy'}
    bed['walls'] = [{'type': 'plane', 'point': [0, 0, 0], 'normal': [0, 0, 1]}]
    for body in bed['bodies']:
        body['velocity'] = [SPEED, 0.0, 0.0]
    return bed


if __name__ == '__main__':
    sphere_bed.main(scene, __doc__)
