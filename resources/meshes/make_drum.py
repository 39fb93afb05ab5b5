#!/usr/bin/env python3
"""Writes drum.stl: a closed cylinder about the y axis (radius 40 mm, length 30 mm, 36 sides, end caps
as fans about their centres), outward oriented, coordinates in metres, binary STL. The container of
resources/scenes/rotating-drum.json (a mesh wall turning about y)."""
import math
import struct
import sys

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


def normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = math.sqrt(sum(x * x for x in n))
    return [x / length for x in n]


def main(path):
    tris = list(triangles())
    with open(path, "wb") as f:
        f.write(b"ClumpLab drum: closed cylinder about y, r 40 mm, l 30 mm, 36 sides".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for a, b, c in tris:
            f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "drum.stl")
