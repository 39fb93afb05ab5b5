#!/usr/bin/env python3
"""Writes pill-bottle.stl: a pill bottle with a 2 mm glass wall, the container of
resources/scenes/pill-bottle.json (Woo's bottle, filled by an inlet, then tipped over so the
capsules pour out). The solid of the glass is closed, 2-manifold and outward oriented; its surface is
a profile revolved about the z axis (SIDES sectors): outside, the bottom (rounded edge), the cylindrical
body, a conical shoulder, the neck and the lip of the open mouth; inside the same way back down to the
inner bottom. Coordinates in metres, the frame's origin at the centre of the outer bottom, binary STL.

    outer body radius 32 mm, inner 30 mm, body 80 mm high (outer bottom to the shoulder's foot),
    shoulder rising 8 mm (45 degrees) to the neck, neck outer radius 24 mm (inner 22 mm: a wide
    mouth, as pill bottles have), 12 mm high: 100 mm overall, glass 2 mm thick everywhere.
"""
import math
import sys

from binary_stl import write_binary_stl

SIDES = 48
WALL = 0.002          # glass thickness [m]
R_BODY = 0.032        # outer radius of the body [m]
R_NECK = 0.024        # outer radius of the neck [m] (a wide mouth)
H_BODY = 0.080        # outer bottom to the foot of the shoulder [m]
H_SHOULDER = 0.008    # height of the conical shoulder [m]
H_NECK = 0.012        # height of the neck [m]
FILLET = 0.004        # radius of the rounded bottom edge (outside; inside FILLET - WALL) [m]
FILLET_STEPS = 3


def profile():
    """(r, z) points from the outer bottom's centre up the outside, over the lip and down the inside
    to the inner bottom's centre; the first and last lie on the axis (closed by fans)."""
    top = H_BODY + H_SHOULDER + H_NECK
    pts = [(0.0, 0.0)]
    # Outer bottom and its rounded edge (quarter circle about (R_BODY - FILLET, FILLET)).
    for k in range(FILLET_STEPS + 1):
        a = -0.5 * math.pi + 0.5 * math.pi * k / FILLET_STEPS
        pts.append((R_BODY - FILLET + FILLET * math.cos(a), FILLET + FILLET * math.sin(a)))
    pts.append((R_BODY, H_BODY))                      # outer body
    pts.append((R_NECK, H_BODY + H_SHOULDER))        # outer shoulder
    pts.append((R_NECK, top))                         # outer neck up to the lip
    pts.append((R_NECK - WALL, top))                  # the lip (flat annulus at the mouth)
    # Inside: the outer lines moved by the wall thickness towards the cavity; the inner shoulder is
    # the outer cone's line shifted along its normal, cut by the inner neck and body cylinders.
    length = math.hypot(R_BODY - R_NECK, H_SHOULDER)
    dr, dz = (R_NECK - R_BODY) / length, H_SHOULDER / length     # along the shoulder, upwards
    nr, nz = -dz, dr                                              # its normal towards the cavity

    def inner_shoulder_at(r):
        s = (r - R_BODY - WALL * nr) / dr
        return (r, H_BODY + WALL * nz + s * dz)

    pts.append(inner_shoulder_at(R_NECK - WALL))
    pts.append(inner_shoulder_at(R_BODY - WALL))
    r_in = FILLET - WALL
    for k in range(FILLET_STEPS + 1):
        a = 0.5 * math.pi * k / FILLET_STEPS         # inner edge: quarter circle, from the wall to the bottom
        pts.append((R_BODY - FILLET + r_in * math.cos(a), FILLET - r_in * math.sin(a)))
    pts.append((0.0, WALL))                           # inner bottom's centre
    return pts


def ring(r, z):
    return [(r * math.cos(2 * math.pi * k / SIDES), r * math.sin(2 * math.pi * k / SIDES), z)
            for k in range(SIDES)]


def triangles(pts):
    rings = [ring(r, z) if r > 0 else None for r, z in pts]
    tris = []
    for i in range(len(pts) - 1):
        (r0, z0), (r1, z1) = pts[i], pts[i + 1]
        for k in range(SIDES):
            k1 = (k + 1) % SIDES
            if r0 == 0.0:    # fan about the axis point
                tris.append(((0.0, 0.0, z0), rings[i + 1][k1], rings[i + 1][k]))
            elif r1 == 0.0:
                tris.append((rings[i][k], rings[i][k1], (0.0, 0.0, z1)))
            else:
                a, b = rings[i][k], rings[i][k1]
                c, d = rings[i + 1][k1], rings[i + 1][k]
                tris.append((a, b, c))
                tris.append((a, c, d))
    return tris


def signed_volume(tris):
    v = 0.0
    for a, b, c in tris:
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
              + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0
    return v


def main(path):
    tris = triangles(profile())
    if signed_volume(tris) < 0:   # make the glass outward oriented
        tris = [(a, c, b) for a, b, c in tris]
    write_binary_stl(path, "ClumpLab pill bottle: glass 2 mm, body r 32 mm h 80 mm, neck r 24 mm, 100 mm", tris)
    print(f"{path}: {len(tris)} triangles, glass volume {abs(signed_volume(tris)) * 1e6:.3f} cm^3")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pill-bottle.stl")
