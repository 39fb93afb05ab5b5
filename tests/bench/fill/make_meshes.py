#!/usr/bin/env python3
"""Make the benchmark meshes (pure numpy, analytic triangulations, binary STL, millimetres).

  plate_hole : 40 x 30 x 3 plate, centred round hole of diameter 12
  l_bracket  : two 40 x 20 x 5 legs at right angles (L cross-section in x-z, extruded 20 in y)
  ellipsoid  : semi-axes 30, 10, 8, UV mesh 160 x 80
  hex_nut    : across flats 19, height 10, threaded hole r = 5.1 + 0.9 * tri(z/1.75 - theta/2pi)
  wingnut, t_handle : the project's meshes, scaled from metres to millimetres
  assimp_cylinder : /usr/share/assimp/models/OBJ/empty_mat.obj (Blender 'Cylinder'), unit as in the file

Checks: every directed edge appears once and its reverse once (closed, consistently oriented),
signed volume vs the analytic volume within 1 %.
"""
import os, sys, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meshio_lite import read_stl, write_stl, check_closed, signed_volume

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'meshes')


def grid_tris(P, closed_u=False, flip=False):
    """Triangulate a structured (nu, nv, 3) point grid; closed_u wraps the first index."""
    nu, nv = P.shape[:2]
    iu = np.arange(nu if closed_u else nu - 1)
    iv = np.arange(nv - 1)
    I, J = np.meshgrid(iu, iv, indexing='ij')
    I2 = (I + 1) % nu
    a, b, c, d = P[I, J], P[I2, J], P[I2, J + 1], P[I, J + 1]
    t1 = np.stack([a, b, c], axis=-2).reshape(-1, 3, 3)
    t2 = np.stack([a, c, d], axis=-2).reshape(-1, 3, 3)
    T = np.concatenate([t1, t2])
    return T[:, ::-1] if flip else T


def with_z(xy, z):
    return np.concatenate([xy, np.full(xy.shape[:-1] + (1,), float(z))], axis=-1)


def ring_between(inner, outer, M):
    """(n, M+1, 2): linear blend from inner (s=0) to outer (s=M), end rows exactly the given rings."""
    s = np.arange(M + 1) / M
    P = inner[:, None, :] + s[None, :, None] * (outer - inner)[:, None, :]
    P[:, 0] = inner
    P[:, -1] = outer
    return P


def plate_hole(Lx=40.0, Ly=30.0, T=3.0, D=12.0, n=160, M=12, K=6):
    # outer loop: points on the rectangle at the polar angles of n equally spaced directions,
    # with the 4 corners included exactly (n multiple of 4, corner angles inserted)
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    corners = np.arctan2([Ly / 2, Ly / 2, -Ly / 2, -Ly / 2], [Lx / 2, -Lx / 2, -Lx / 2, Lx / 2]) % (2 * np.pi)
    th = np.unique(np.concatenate([th, corners]))
    c, s = np.cos(th), np.sin(th)
    with np.errstate(divide='ignore'):
        t = np.minimum(np.where(np.abs(c) > 1e-15, (Lx / 2) / np.abs(c), np.inf),
                       np.where(np.abs(s) > 1e-15, (Ly / 2) / np.abs(s), np.inf))
    O = np.stack([t * c, t * s], -1)
    ci = np.argmin(np.abs(th[:, None] - corners[None]), axis=0)
    O[ci] = np.stack([np.sign(np.cos(corners)) * Lx / 2, np.sign(np.sin(corners)) * Ly / 2], -1)
    I = np.stack([D / 2 * c, D / 2 * s], -1)
    F2 = ring_between(I, O, M)
    z = np.linspace(0, T, K + 1)
    tris = [grid_tris(with_z(F2, T), True, flip=True),             # top, normal +z (u=angle, v=radial: du x dv = -z)
            grid_tris(with_z(F2, 0.0), True, flip=False),          # bottom
            grid_tris(np.stack([with_z(O, zz) for zz in z], 1), True, flip=False),   # outer wall
            grid_tris(np.stack([with_z(I, zz) for zz in z], 1), True, flip=True)]    # hole wall
    V = Lx * Ly * T - np.pi * (D / 2) ** 2 * T
    return np.concatenate(tris), V


def voxel_surface(occ, h, origin=(0, 0, 0)):
    """Boundary of a union of grid-aligned cubes, as outward-oriented triangles."""
    occ = np.pad(occ, 1)
    o = np.asarray(origin, float) - h
    tris = []
    # for axis a, faces between cell i and i+1 along a
    for a in range(3):
        d = np.diff(occ.astype(np.int8), axis=a)  # +1: empty->full (normal -a), -1: full->empty (normal +a)
        for sign in (1, -1):
            idx = np.argwhere(d == sign)
            if len(idx) == 0:
                continue
            b, c = [(a + 1) % 3, (a + 2) % 3]
            base = idx.astype(float)
            base[:, a] += 1.0  # face plane at index i+1 along a
            p0 = base.copy()
            p1 = base.copy(); p1[:, b] += 1
            p2 = base.copy(); p2[:, b] += 1; p2[:, c] += 1
            p3 = base.copy(); p3[:, c] += 1
            q = [p * h + o for p in (p0, p1, p2, p3)]
            # (b, c, a) is right-handed: p0->p1->p2 has normal +a
            t1 = np.stack([q[0], q[1], q[2]], 1); t2 = np.stack([q[0], q[2], q[3]], 1)
            T = np.concatenate([t1, t2])
            tris.append(T if sign == -1 else T[:, ::-1])
    return np.concatenate(tris)


def l_bracket(L=40.0, W=20.0, T=5.0, h=1.0):
    nx, ny, nz = int(round(L / h)), int(round(W / h)), int(round(L / h))
    occ = np.zeros((nx, ny, nz), bool)
    nt = int(round(T / h))
    occ[:, :, :nt] = True       # horizontal leg 40 (x) x 20 (y) x 5 (z)
    occ[:nt, :, :] = True       # vertical leg 5 (x) x 20 (y) x 40 (z)
    V = (L * T + (L - T) * T) * W
    return voxel_surface(occ, h), V


def ellipsoid(a=30.0, b=10.0, c=8.0, nu=160, nv=80):
    u = np.linspace(0, 2 * np.pi, nu, endpoint=False)
    v = np.linspace(0, np.pi, nv + 1)[1:-1]  # exclude poles
    U, Vv = np.meshgrid(u, v, indexing='ij')
    P = np.stack([a * np.cos(U) * np.sin(Vv), b * np.sin(U) * np.sin(Vv), c * np.cos(Vv)], -1)
    # v increases from +z pole to -z pole; (u, v) ordering: du x dv points inward -> flip
    body = grid_tris(P, True, flip=True)
    N = np.array([0, 0, c]); S = np.array([0, 0, -c])
    i = np.arange(nu); i2 = (i + 1) % nu
    top = np.stack([np.broadcast_to(N, (nu, 3)), P[i, 0], P[i2, 0]], 1)
    bot = np.stack([np.broadcast_to(S, (nu, 3)), P[i2, -1], P[i, -1]], 1)
    Vol = 4 / 3 * np.pi * a * b * c
    return np.concatenate([body, top, bot]), Vol


def hex_nut(AF=19.0, H=10.0, r0=5.1, depth=0.9, pitch=1.75, nth=144, nz=96, M=10):
    R = AF / np.sqrt(3)  # circumradius
    th = np.linspace(0, 2 * np.pi, nth, endpoint=False)  # nth multiple of 6: corners at k*60 deg
    # hexagon with corners at 0, 60, ...: distance along ray = (AF/2)/cos(theta - face_centre)
    fc = (np.floor(th / (np.pi / 3)) * (np.pi / 3)) + np.pi / 6
    rh = (AF / 2) / np.cos(th - fc)
    Hx = np.stack([rh * np.cos(th), rh * np.sin(th)], -1)
    k6 = np.arange(0, nth, nth // 6)
    Hx[k6] = np.stack([R * np.cos(th[k6]), R * np.sin(th[k6])], -1)
    z = np.linspace(0, H, nz + 1)

    def r_hole(T, Z):
        ph = np.mod(Z / pitch - T / (2 * np.pi), 1.0)
        tri = 1.0 - np.abs(2.0 * ph - 1.0)      # 0 at root of the nut thread (minor), 1 at crest
        return r0 + depth * tri

    TT, ZZ = np.meshgrid(th, z, indexing='ij')
    RR = r_hole(TT, ZZ)
    Wall = np.stack([RR * np.cos(TT), RR * np.sin(TT), ZZ], -1)  # (nth, nz+1, 3)
    I0 = Wall[:, 0, :2]; I1 = Wall[:, -1, :2]
    tris = [grid_tris(with_z(ring_between(I1, Hx, M), H), True, flip=True),    # top
            grid_tris(with_z(ring_between(I0, Hx, M), 0.0), True, flip=False), # bottom
            grid_tris(np.stack([with_z(Hx, zz) for zz in z], 1), True, flip=False),  # outer wall
            grid_tris(Wall, True, flip=True)]                                      # hole wall
    hex_area = 1.5 * np.sqrt(3) * R ** 2
    Er2 = r0 ** 2 + r0 * depth + depth ** 2 / 3  # triangle wave is uniform on [0,1]
    Vol = hex_area * H - np.pi * H * Er2
    return np.concatenate(tris), Vol


def read_obj_tris(path):
    V, T = [], []
    for l in open(path, encoding='latin1'):
        p = l.split()
        if not p:
            continue
        if p[0] == 'v':
            V.append([float(x) for x in p[1:4]])
        elif p[0] == 'f':
            idx = [int(q.split('/')[0]) for q in p[1:]]
            idx = [i - 1 if i > 0 else len(V) + i for i in idx]
            for k in range(1, len(idx) - 1):
                T.append([idx[0], idx[k], idx[k + 1]])
    V = np.array(V); T = np.array(T)
    return V[T]


def main():
    os.makedirs(OUT, exist_ok=True)
    items = {}
    items['plate_hole'] = plate_hole()
    items['l_bracket'] = l_bracket()
    items['ellipsoid'] = ellipsoid()
    items['hex_nut'] = hex_nut()
    for name, f in [('wingnut', 'wingnut.stl'), ('t_handle', 't-handle.stl')]:
        t = read_stl(os.path.join(REPO, 'resources', 'meshes', f)) * 1000.0
        items[name] = (t, None)
    outside = '/usr/share/assimp/models/OBJ/empty_mat.obj'  # Debian's assimp-testmodels
    if os.path.exists(outside):
        items['assimp_cylinder'] = (read_obj_tris(outside), None)
    else:
        print('no ' + outside + ' (apt-get install assimp-testmodels): the cylinder from outside is left out')
    ok = True
    for name, (t, Vexact) in items.items():
        chk = check_closed(t)
        V = signed_volume(t)
        rel = None if Vexact is None else (V - Vexact) / Vexact
        good = chk['closed_oriented'] and V > 0 and (rel is None or abs(rel) < 0.01)
        ok &= good
        ext = t.reshape(-1, 3).max(0) - t.reshape(-1, 3).min(0)
        print(f"{name:16s} tris={chk['triangles']:6d} verts={chk['vertices']:6d} closed_oriented={chk['closed_oriented']} "
              f"V={V:.4f} analytic={'-' if Vexact is None else f'{Vexact:.4f}'} "
              f"rel_err={'-' if rel is None else f'{rel:+.5f}'} bbox={np.round(ext, 3).tolist()} {'OK' if good else 'FAIL'}")
        write_stl(os.path.join(OUT, name + '.stl'), t)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
