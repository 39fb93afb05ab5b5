"""Writes triangles as a binary STL (80-byte header, count, then per triangle the unit normal by the
right-hand rule and the three corners as little-endian floats): what the mesh generators here share."""
import math
import struct


def normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = math.sqrt(sum(x * x for x in n))
    return [x / length for x in n]


def write_binary_stl(path, header, tris):
    with open(path, "wb") as f:
        f.write(header.encode("ascii")[:80].ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for a, b, c in tris:
            f.write(struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0))
