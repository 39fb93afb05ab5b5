"""Minimal mesh I/O + checks (pure numpy). Own code, independent of CLUMP and ClumpLab."""
import numpy as np, struct

def read_stl(path):
    data = open(path, 'rb').read()
    if len(data) >= 84:
        n = struct.unpack('<I', data[80:84])[0]
        if 84 + 50 * n == len(data):
            rec = np.frombuffer(data[84:], dtype=np.dtype([('n', '<f4', 3), ('v', '<f4', (3, 3)), ('a', '<u2')]), count=n)
            return rec['v'].astype(np.float64)
    # ascii
    vs = [list(map(float, l.split()[1:4])) for l in data.decode('latin1').splitlines() if l.strip().startswith('vertex')]
    return np.array(vs, dtype=np.float64).reshape(-1, 3, 3)

def write_stl(path, tris):
    tris = np.asarray(tris, dtype=np.float64)
    n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    ln = np.linalg.norm(n, axis=1, keepdims=True); ln[ln == 0] = 1
    rec = np.zeros(len(tris), dtype=np.dtype([('n', '<f4', 3), ('v', '<f4', (3, 3)), ('a', '<u2')]))
    rec['n'] = n / ln; rec['v'] = tris
    with open(path, 'wb') as f:
        f.write(b'binary STL written by clumpref'.ljust(80, b' '))
        f.write(struct.pack('<I', len(tris))); f.write(rec.tobytes())

def weld(tris, tol=0.0):
    P = tris.reshape(-1, 3)
    key = P if tol == 0 else np.round(P / tol)
    u, inv = np.unique(key, axis=0, return_inverse=True)
    V = np.zeros((len(u), 3)); V[inv.ravel()] = P
    return V, inv.reshape(-1, 3)

def signed_volume(tris):
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    return np.einsum('ij,ij->i', a, np.cross(b, c)).sum() / 6.0

def check_closed(tris, tol=0.0):
    """Every directed edge must appear once and its reverse once (2-manifold, consistently oriented)."""
    V, F = weld(tris, tol)
    deg = (F[:, 0] == F[:, 1]) | (F[:, 1] == F[:, 2]) | (F[:, 0] == F[:, 2])
    E = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
    nv = len(V)
    d = E[:, 0].astype(np.int64) * nv + E[:, 1]
    r = E[:, 1].astype(np.int64) * nv + E[:, 0]
    ud, cnt = np.unique(d, return_counts=True)
    dup_directed = int((cnt > 1).sum())
    missing_reverse = int((~np.isin(r, ud)).sum())
    return dict(vertices=nv, triangles=len(F), degenerate=int(deg.sum()),
                directed_edges_duplicated=dup_directed, edges_without_opposite=missing_reverse,
                closed_oriented=(dup_directed == 0 and missing_reverse == 0 and deg.sum() == 0))
