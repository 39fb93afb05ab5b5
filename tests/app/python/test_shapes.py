"""clumplab.inertia, clumplab.fill and clumplab.Template: the same data as clumplab-cli inertia and
fill, the same one-line messages for bad input."""
import json
import os
import tempfile
import unittest

import numpy as np

import clumplab
from support import MESHES, SCENES, cli_failure, cli_json


class SameAsTheCli(unittest.TestCase):
    def test_inertia_of_a_mesh(self):
        mesh = os.path.join(MESHES, "t-handle.stl")
        for method, extra in (("mesh", []), ("voxel", ["--voxels", "48"])):
            with self.subTest(method=method):
                kwargs = {"voxels": 48} if extra else {}
                got = clumplab.inertia(mesh, method=method, density=2500.0, **kwargs)
                self.assertEqual(got, cli_json("inertia", mesh, "--method", method, "--density", "2500.0", *extra))

    def test_inertia_of_a_template_file_and_exact_numbers(self):
        """A density given as a float reaches the command exactly (no rounding on the way)."""
        mesh = os.path.join(MESHES, "t-handle.stl")
        density = 2500.123456789012
        got = clumplab.inertia(mesh, density=density, scale=0.001)
        self.assertEqual(got["density"], density)
        self.assertEqual(got, cli_json("inertia", mesh, "--density", repr(density), "--scale", "0.001"))

    def test_fill_returns_and_writes_the_template(self):
        mesh = os.path.join(MESHES, "t-handle.stl")
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "tbar.json")
            got = clumplab.fill(mesh, spacing=4e-4, density=2500, out=out)
            with open(out, encoding="utf-8") as f:
                self.assertEqual(json.load(f), got)
            self.assertEqual(got, cli_json("fill", mesh, "--spacing", "0.0004", "--density", "2500"))
            loaded = clumplab.Template.load(out)
        from_dict = clumplab.Template.from_dict(got)
        for t in (loaded, from_dict):
            self.assertEqual(t.name, "t-handle")
            self.assertAlmostEqual(t.mass, got["mass"], delta=1e-12 * got["mass"])
            np.testing.assert_allclose(t.principal_moments, got["principal_moments"], rtol=1e-12)
            self.assertEqual(t.pebbles.shape, (len(got["pebbles"]), 4))

    def test_fill_spheres_with_a_budget_and_its_cost(self):
        """mode="spheres" with a target Dice, a largest count and a protrusion: the command's result,
        stopped at the first limit, with the predicted cost under the scene's law."""
        mesh = os.path.join(MESHES, "t-handle.stl")
        scene = os.path.join(SCENES, "default.json")
        got = clumplab.fill(mesh, mode="spheres", target_dice=0.97, max_count=6, max_protrusion=2e-4,
                            scene=scene, pile=40)
        self.assertEqual(got, cli_json("fill", mesh, "--mode", "spheres", "--target-dice", "0.97", "--max-count", "6",
                                       "--max-protrusion", "0.0002", "--scene", scene,
                                       "--pile", "40"))
        self.assertEqual(got["fill"]["pebbles"], 6)
        self.assertEqual(got["fill"]["stop"], "largest count")
        self.assertLessEqual(got["metrics"]["largest_protrusion"], 2e-4 * 1.001)
        cost = got["metrics"]["predicted_cost"]
        self.assertEqual(cost["bodies"], 40)
        self.assertEqual(cost["law"], "linear, kn 1e+06 N/m, e 0.35")
        self.assertAlmostEqual(cost["simulated_seconds_per_wall_second"],
                               cost["time_step"] / cost["seconds_per_step"], delta=1e-12)
        loose = clumplab.fill(mesh, mode="spheres", target_dice=0.9)
        self.assertEqual(loose["fill"]["stop"], "target Dice")
        self.assertGreaterEqual(loose["metrics"]["dice"], 0.9)

    def test_fill_spheres_seed(self):
        """The same seed gives the same spheres, from fill and from a scene naming the mesh; another
        seed other spheres of the same quality."""
        mesh = os.path.join(MESHES, "t-handle.stl")
        a = clumplab.fill(mesh, mode="spheres", target_dice=0.9, seed=7)
        self.assertEqual(a, clumplab.fill(mesh, mode="spheres", target_dice=0.9, seed=7))
        self.assertIn("seed 7", a["metrics"]["fill_method"])
        other = clumplab.fill(mesh, mode="spheres", target_dice=0.9)
        self.assertNotEqual(a["pebbles"], other["pebbles"])
        self.assertGreaterEqual(other["metrics"]["dice"], 0.9)
        with tempfile.TemporaryDirectory() as folder:
            scene = os.path.join(folder, "s.json")
            with open(scene, "w", encoding="utf-8") as f:
                json.dump({"format": "clumplab-scene/1", "time_step": 1e-5,
                           "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
                           "templates": {"t": {"mesh": mesh, "density": 1000,
                                               "fill": {"mode": "spheres", "target_dice": 0.9, "seed": 7}}},
                           "bodies": [{"template": "t", "position": [0, 0, 0]}]}, f)
            self.assertEqual(clumplab.load(scene).pebble_count, len(a["pebbles"]))

    def test_bad_input_raises_the_cli_line(self):
        mesh = os.path.join(MESHES, "t-handle.stl")
        missing = os.path.join(MESHES, "no-such-mesh.stl")
        cases = [
            (lambda: clumplab.inertia(mesh, density=-1), ("inertia", mesh, "--density", "-1")),
            (lambda: clumplab.inertia(missing), ("inertia", missing)),
            (lambda: clumplab.inertia(mesh, method="pebbles"), ("inertia", mesh, "--method", "pebbles")),
            (lambda: clumplab.fill(mesh), ("fill", mesh)),
            (lambda: clumplab.fill(mesh, spacing=4e-4, radius=0), ("fill", mesh, "--spacing", "0.0004", "--radius", "0")),
            (lambda: clumplab.fill(mesh, mode="spheres", count=5, max_count=9),
             ("fill", mesh, "--mode", "spheres", "--count", "5", "--max-count", "9")),
            (lambda: clumplab.fill(mesh, mode="spheres", scene=missing),
             ("fill", mesh, "--mode", "spheres", "--scene", missing)),
            (lambda: clumplab.fill(mesh, mode="spheres", max_protrusion=1.0),
             ("fill", mesh, "--mode", "spheres", "--max-protrusion", "1.0")),
        ]
        for call, args in cases:
            with self.subTest(args=args):
                with self.assertRaises(clumplab.InputError) as caught:
                    call()
                self.assertEqual(str(caught.exception), cli_failure(*args))

    def test_a_misspelt_keyword_is_a_type_error(self):
        with self.assertRaises(TypeError):
            clumplab.inertia(os.path.join(MESHES, "t-handle.stl"), densty=1000)


class Templates(unittest.TestCase):
    def test_template_keys_are_a_scene_files(self):
        """Template(name, **keys) takes a scene's template entry: pebbles with a density (numpy or
        lists), given inertia, a mesh; its errors name the key."""
        pebbles = np.array([[0, 0, 0, 0.01], [0.015, 0, 0, 0.01]])
        voxel = clumplab.Template("pair", density=1000, pebbles=pebbles, inertia="voxel", voxels=64)
        summed = clumplab.Template("pair", density=1000, pebbles=pebbles.tolist())
        self.assertLess(voxel.mass, summed.mass)  # the overlap counted once
        self.assertEqual(voxel.inertia_method, "voxel")
        given = clumplab.Template("given", inertia="given", mass=2.0, center_of_mass=[0, 0, 0],
                                  inertia_tensor=[[1, 0, 0], [0, 2, 0], [0, 0, 2.5]],
                                  pebbles=[[0, 0, 0, 0.1]])
        np.testing.assert_allclose(given.principal_moments, [1, 2, 2.5])
        mesh = clumplab.Template("tbar", mesh=os.path.join(MESHES, "t-handle.stl"), density=2500,
                                 inertia="mesh", fill={"spacing": 4e-4})
        self.assertGreater(len(mesh.pebbles), 10)
        with self.assertRaises(clumplab.InputError) as caught:
            clumplab.Template("bad", density=-5, pebbles=[[0, 0, 0, 0.01]])
        self.assertIn("templates.bad.density", str(caught.exception))
        with self.assertRaises(clumplab.InputError) as caught:
            clumplab.Template("bad", densty=5, pebbles=[[0, 0, 0, 0.01]])
        self.assertIn("densty", str(caught.exception))

    def test_template_file_round_trip(self):
        t = clumplab.Template("pair", density=1000, pebbles=[[0, 0, 0, 0.01], [0.03, 0, 0, 0.01]])
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "pair.json")
            t.save(path)
            again = clumplab.Template.load(path)
        self.assertEqual(again.mass, t.mass)
        np.testing.assert_array_equal(again.pebbles, t.pebbles)
        self.assertEqual(json.loads(t.to_json())["format"], "clumplab-template/1")


if __name__ == "__main__":
    unittest.main()
