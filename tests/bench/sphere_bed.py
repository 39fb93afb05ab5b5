#!/usr/bin/env python3
"""Writes the sphere-bed benchmark scene: equal spheres settling in a box (issue 41's first row).

usage: python3 tests/bench/sphere_bed.py OUT.json [--nx 40 --ny 30 --nz 20] [--seed 1]

NX x NY x NZ single-pebble bodies of radius 1 mm (density 2500 kg/m^3) on a 2.2 mm lattice, each
shifted by up to 0.1 mm at random (seeded: the same file every time), inside a floor and four side
walls; the linear spring-dashpot with tangential history (k_n 1000 N/m, k_t/k_n 2/7, friction 0.5,
a fixed dashpot c sized for restitution 0.5 between two spheres), time step 1e-5 s. The defaults give
24 000 spheres; in 5000 steps (0.05 s) the lower layers land and press together.
lammps_side_by_side.py writes the same bed as a LAMMPS deck (gran/hooke/history + nve/sphere).
"""
import argparse
import json
import math
import random

RADIUS = 0.001  # m
DENSITY = 2500.0  # kg/m^3
SPACING = 0.0022  # m
JITTER = 0.0001  # m
STIFFNESS = 1000.0  # N/m
RESTITUTION = 0.5
FRICTION = 0.5
TANGENTIAL_RATIO = 2.0 / 7.0
TIME_STEP = 1e-5  # s


def sphere_mass():
    return DENSITY * 4.0 / 3.0 * math.pi * RADIUS ** 3


def dashpot():
    """The fixed normal dashpot c (N s/m) that gives RESTITUTION between two equal spheres."""
    reduced = 0.5 * sphere_mass()
    log_e = math.log(RESTITUTION)
    zeta = -log_e / math.sqrt(math.pi ** 2 + log_e ** 2)
    return 2.0 * zeta * math.sqrt(STIFFNESS * reduced)


def box(nx, ny):
    """The inner walls' extent: x in [0, nx s], y in [0, ny s], floor z = 0."""
    return nx * SPACING, ny * SPACING


def centres(nx, ny, nz, seed):
    rng = random.Random(seed)
    out = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                out.append([(i + 0.5) * SPACING + rng.uniform(-JITTER, JITTER),
                            (j + 0.5) * SPACING + rng.uniform(-JITTER, JITTER),
                            (k + 0.5) * SPACING + rng.uniform(-JITTER, JITTER)])
    return out


def scene(nx, ny, nz, seed):
    lx, ly = box(nx, ny)
    walls = [{"type": "plane", "point": p, "normal": n} for p, n in (
        ([0, 0, 0], [0, 0, 1]), ([0, 0, 0], [1, 0, 0]), ([lx, 0, 0], [-1, 0, 0]),
        ([0, 0, 0], [0, 1, 0]), ([0, ly, 0], [0, -1, 0]))]
    return {
        "format": "clumplab-scene/1",
        "description": "Sphere bed (tests/bench/sphere_bed.py): %d equal spheres of radius 1 mm settle in a box; "
                       "run 5000 steps and compare with LAMMPS (tests/bench/lammps_side_by_side.py)." % (nx * ny * nz),
        "time_step": TIME_STEP,
        "integrator": "leapfrog",
        "gravity": [0, 0, -9.81],
        "contact": {"model": "linear", "stiffness": STIFFNESS, "damping": dashpot(), "friction": FRICTION,
                    "tangential_stiffness_ratio": TANGENTIAL_RATIO, "tangential_damping": 0.0},
        "walls": walls,
        "templates": {"ball": {"density": DENSITY, "pebbles": [[0.0, 0.0, 0.0, RADIUS]]}},
        "bodies": [{"template": "ball", "position": c} for c in centres(nx, ny, nz, seed)],
    }


def main(make_scene=None, doc=None):
    """The command line of this script, and of sphere_chute.py's with its own scene and docstring."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).split('\n')[0])
    parser.add_argument('out')
    parser.add_argument('--nx', type=int, default=40)
    parser.add_argument('--ny', type=int, default=30)
    parser.add_argument('--nz', type=int, default=20)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    with open(args.out, 'w') as f:
        json.dump((make_scene or scene)(args.nx, args.ny, args.nz, args.seed), f, indent=0)


if __name__ == '__main__':
    main()
