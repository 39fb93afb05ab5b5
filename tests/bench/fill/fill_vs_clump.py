#!/usr/bin/python3
"""ClumpLab's sphere fill against CLUMP (Angelidakis, Nadimi, Otsubo, Utili, "CLUMP: a code library to
generate universal multi-sphere particles", SoftwareX 2021) on seven meshes (README.md).

  tests/bench/fill/fill_vs_clump.py [--cli build/release/app/cli/clumplab-cli] [--out DIR]

Makes the meshes (make_meshes.py), runs `clumplab-cli fill MESH --mode spheres` on each (Dice 0.95,
protrusion up to 2% of the mesh's size), and prints per mesh: the spheres ClumpLab needs, CLUMP's best
generator's count at Dice 0.95 (clump_reference.json, measured with an independent evaluator), their
ratio, and ClumpLab's Dice, volume error, largest protrusion / size and wall time; the hex nut (61 056 triangles)
to 100 spheres on one core; ratios last.
"""
import argparse, json, os, shutil, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cli', default=os.path.join(REPO, 'build', 'release', 'app', 'cli', 'clumplab-cli'))
    ap.add_argument('--out', default=os.path.join(REPO, 'build', 'bench-fill'))
    ap.add_argument('--target-dice', default='0.95')
    args = ap.parse_args()
    meshes = os.path.join(args.out, 'meshes')
    subprocess.run([sys.executable, os.path.join(HERE, 'make_meshes.py'), meshes], check=True,
                   stdout=subprocess.DEVNULL)
    reference = json.load(open(os.path.join(HERE, 'clump_reference.json')))['meshes']
    rows = []
    for name, ref in reference.items():
        mesh = os.path.join(meshes, name + '.stl')
        if not os.path.exists(mesh):
            print(f'{name}: no mesh (left out)')
            continue
        start = time.perf_counter()
        run = subprocess.run([args.cli, 'fill', mesh, '--mode', 'spheres', '--target-dice', args.target_dice,
                              '--scale', '0.001'], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if run.returncode != 0:
            print(f'{name}: clumplab-cli failed: {run.stderr.strip()}')
            continue
        result = json.loads(run.stdout)
        m, f = result['metrics'], result['fill']
        box = result['mesh_report']['bounding_box']
        size = max(u - l for u, l in zip(box['max'], box['min']))
        rows.append((name, f['pebbles'], ref['n95'], ref['generator'], m['dice'], m['volume_error'],
                     m['largest_protrusion'] / size, seconds))
    print(f"{'mesh':16s} {'ClumpLab':>8s} {'CLUMP':>6s}  {'CLUMP generator':18s} {'Dice':>6s} {'volume':>7s} "
          f"{'protr.':>6s} {'wall':>6s}")
    for name, n, n95, generator, dice, volume, protrusion, seconds in rows:
        print(f'{name:16s} {n:8d} {n95:6d}  {generator:18s} {dice:6.4f} {100 * volume:+6.2f}% {100 * protrusion:5.2f}% '
              f'{seconds:5.1f}s')
    # A mesh of over 30 000 triangles to a 100-sphere clump on one core (the goal: at most 5 s).
    nut = os.path.join(meshes, 'hex_nut.stl')
    if os.path.exists(nut) and shutil.which('taskset'):
        start = time.perf_counter()
        run = subprocess.run(['taskset', '-c', '0', args.cli, 'fill', nut, '--mode', 'spheres', '--count', '100',
                              '--scale', '0.001'], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if run.returncode == 0:
            triangles = json.loads(run.stdout)['mesh_report']['triangles']
            print(f'hex_nut ({triangles} triangles) to 100 spheres on one core: {seconds:.1f} s (goal: at most 5 s)')
    print('ratios (ClumpLab spheres / CLUMP spheres at Dice 0.95; the goal is at most 0.5):')
    for name, n, n95, *_ in rows:
        print(f'  {name:16s} {n / n95:.2f}')


if __name__ == '__main__':
    main()
