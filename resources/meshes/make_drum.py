#!/usr/bin/env python3
"""Writes drum.stl: a closed cylinder about the y axis (radius 40 mm, length 30 mm, 36 sides, end caps
as fans about their centres), outward oriented, coordinates in metres, binary STL. The container of
resources/scenes/rotating-drum.json (a mesh wall turning about y)."""
import math
import sys

from binary_stl import write_binary_stl

RADIUS, HALF_LENGTH, SIDES = 0.04, 0.015, 36


def triangles():
    ring = [(RADIUS * math.cos(2 * math.pi * k / SIDES), RADIUS * math.sin(2 * math.pi * k / SIDES))
            for k in range(SIDES)]
    for k in range(SIDES):
        (x0, z0), (x1, z1) = ring[k], ring[(k + 1) % SIDES]
        a, b = (x0, -HALF_LENGTH, z0), (x1, -HALF_LENGTH, z1)
        c, d = (x1, HALF_LENGTH, z1), (x0, HALF_LENGTH, z0)
        yield a, c, b  # side, outward (normal away from the axis)
        yield a, d, c
        yield (0.0, -HALF_LENGTH, 0.0), a, b  # cap at -y, normal -y
        yield (0.0, HALF_LENGTH, 0.0), c, d   # cap at +y, normal +y


def main(path):
    tris = list(triangles())
    write_binary_stl(path, "ClumpLab drum: closed cylinder about y, r 40 mm, l 30 mm, 36 sides", tris)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "drum.stl")
