#!/usr/bin/python3
"""A pile of sphere-fitted clumps against a pile of grid clumps of the same Dice coefficient (issue 39):
simulated seconds per wall second on one thread, each world at the time step the engine recommends
for it, beside the rate `fill` predicted (metrics.predicted_cost).

  tests/bench/fill/pile_speed.py [--build build/release] [--mesh resources/meshes/wingnut.stl]
                                 [--bodies 30] [--time 0.05] [--target-dice 0.9]

For the mesh: `fill --mode spheres --target-dice D`, then the grid fill (circumscribed, fitted and
shell, by count) with the fewest pebbles whose Dice reaches the sphere fit's; both poured as
`--bodies` copies (random orientations, one seed) into a box under a linear law (kn 1e5 N/m, e 0.5,
mu 0.5: softer, and the grid clumps' 0.09 mm pebbles sink into each other by more than half their
radius on impact, which the engine stops as a divergence) and run for `--time` simulated seconds on one thread. Prints per clump: pebbles, smallest
radius, Dice, the recommended step, predicted and measured simulated s per wall s; the ratio last.
The Dice defaults to 0.9: grid clumps of the wing nut reach 0.95 only beyond 8000 pebbles (fitted,
0.947 at 8000; circumscribed 0.92 at 4000), a pile of which would run for hours.
"""
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
LAW = {"model": "linear", "stiffness": 1e5, "restitution": 0.5, "friction": 0.5}


def fill(cli, mesh, scene, bodies, *args):
    run = subprocess.run([cli, 'fill', mesh, '--density', '1200', '--scene', scene, '--pile', str(bodies), *args],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f'clumplab-cli fill {" ".join(args)}: {run.stderr.strip()}')
    return json.loads(run.stdout)


def grid_at_dice(cli, mesh, scene, bodies, dice):
    """The grid clump with the fewest pebbles whose Dice reaches `dice` (counts doubling, then bisected)."""
    best = None
    for mode in ('circumscribed', 'fitted', 'shell'):
        low, high, found = 50, None, None
        count = 100
        while count <= 20000:
            t = fill(cli, mesh, scene, bodies, '--count', str(count), '--mode', mode)
            if t['metrics']['dice'] >= dice:
                high, found = count, t
                break
            low, count = count, count * 2
        if found is None:
            continue
        while high - low > max(10, high // 20):
            mid = (low + high) // 2
            t = fill(cli, mesh, scene, bodies, '--count', str(mid), '--mode', mode)
            if t['metrics']['dice'] >= dice:
                high, found = mid, t
            else:
                low = mid
        if best is None or len(found['pebbles']) < len(best['pebbles']):
            best = found
    return best


def pile_rate(clumplab, template_path, bodies, seconds, folder, name):
    size = 0.0
    with open(template_path) as f:
        size = 2.0 * json.load(f)['bounding_radius']
    side = max(0.05, 0.6 * size * bodies ** (1.0 / 3.0) * 2.0)
    scene = {
        "format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, -9.81], "contact": LAW,
        "walls": [{"type": "box", "min": [-side / 2, -side / 2, 0], "max": [side / 2, side / 2, 2 * side]}],
        "templates": {"clump": {"file": template_path}},
        "generate": [{"template": "clump", "count": bodies, "seed": 5, "random_orientation": True,
                      "region": {"min": [-side / 2 + size, -side / 2 + size, size],
                                 "max": [side / 2 - size, side / 2 - size, 2 * side - size]}}]}
    path = os.path.join(folder, name + '-pile.json')
    with open(path, 'w') as f:
        json.dump(scene, f)
    world = clumplab.load(path, threads=1)
    world.time_step = world.recommended_time_step
    start = time.perf_counter()
    world.run(seconds)
    wall = time.perf_counter() - start
    return world.time_step, seconds / wall, world.pebble_count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(REPO, 'build', 'release'))
    ap.add_argument('--mesh', default=os.path.join(REPO, 'resources', 'meshes', 'wingnut.stl'))
    ap.add_argument('--bodies', type=int, default=30)
    ap.add_argument('--time', type=float, default=0.05)
    ap.add_argument('--target-dice', default='0.9')
    args = ap.parse_args()
    cli = os.path.join(args.build, 'app', 'cli', 'clumplab-cli')
    sys.path.insert(0, os.path.join(args.build, 'python'))
    import clumplab
    with tempfile.TemporaryDirectory() as folder:
        law_scene = os.path.join(folder, 'law.json')
        with open(law_scene, 'w') as f:
            json.dump({"contact": LAW}, f)
        spheres = fill(cli, args.mesh, law_scene, args.bodies, '--mode', 'spheres', '--target-dice', args.target_dice)
        grid = grid_at_dice(cli, args.mesh, law_scene, args.bodies, spheres['metrics']['dice'])
        if grid is None:
            raise SystemExit('no grid fill up to 20000 pebbles reaches the sphere fit\'s Dice')
        rows = []
        for name, t in (('spheres', spheres), ('grid', grid)):
            path = os.path.join(folder, name + '.json')
            with open(path, 'w') as f:
                json.dump(t, f)
            step, rate, pebbles = pile_rate(clumplab, path, args.bodies, args.time, folder, name)
            m = t['metrics']
            rows.append((name, len(t['pebbles']), m['predicted_cost']['exposed_pebbles'], m['smallest_radius'], m['dice'], step,
                         m['predicted_cost']['simulated_seconds_per_wall_second'], rate, t['metrics']['fill_method']))
    print(f"{'clump':8s} {'pebbles':>7s} {'exposed':>7s} {'smallest r':>10s} {'Dice':>6s} {'step [s]':>9s} "
          f"{'predicted':>9s} {'measured':>9s}  fill")
    for name, n, exposed, r, dice, step, predicted, measured, how in rows:
        print(f'{name:8s} {n:7d} {exposed:7d} {r:10.3g} {dice:6.4f} {step:9.3g} {predicted:9.3g} {measured:9.3g}  {how}')
    print(f'ratio (spheres / grid, simulated s per wall s, {args.bodies} bodies, {args.time} s, 1 thread): '
          f'{rows[0][7] / rows[1][7]:.1f}x measured, {rows[0][6] / rows[1][6]:.1f}x predicted')


if __name__ == '__main__':
    main()
