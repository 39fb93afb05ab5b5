"""Bad input and divergence from Python: the exceptions carry the one line clumplab-cli prints for
the same scene, and a world that blows up stops with its explanation, not NaN."""
import json
import math
import os
import subprocess
import tempfile
import unittest

import clumplab
from support import CLI, SCENES, cli_failure

STIFF = {"format": "clumplab-scene/1", "time_step": 1e-3, "gravity": [0, 0, 0],
         "contact": {"model": "linear", "stiffness": 1e7, "restitution": 0.9},
         "templates": {"a": {"density": 1000, "pebbles": [[0, 0, 0, 0.001]]}},
         "bodies": [{"template": "a", "position": [0, 0, 0], "velocity": [1, 0, 0]},
                    {"template": "a", "position": [0.0025, 0, 0], "velocity": [-1, 0, 0]}]}


class BadScenes(unittest.TestCase):
    def write(self, folder, name, text):
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_load_raises_the_cli_line(self):
        good = json.load(open(os.path.join(SCENES, "tbar-dzhanibekov.json"), encoding="utf-8"))
        typo = dict(good, time_stpe=1e-4)
        nan_step = json.dumps(dict(good, time_step=0))
        with tempfile.TemporaryDirectory() as folder:
            cases = {
                "missing": os.path.join(folder, "no-such-scene.json"),
                "typo": self.write(folder, "typo.json", json.dumps(typo)),
                "syntax": self.write(folder, "syntax.json", '{"format": "clumplab-scene/1",\n "bodies": [}'),
                "zero step": self.write(folder, "zero.json", nan_step),
                "not a mesh": self.write(folder, "mesh.json", json.dumps(
                    {"format": "clumplab-scene/1", "templates": {"m": {"mesh": "nothing.stl", "density": 1}},
                     "bodies": [{"template": "m", "position": [0, 0, 0]}]})),
            }
            for name, path in cases.items():
                with self.subTest(case=name):
                    with self.assertRaises(clumplab.InputError) as caught:
                        clumplab.load(path)
                    self.assertIsInstance(caught.exception, ValueError)
                    self.assertEqual(str(caught.exception), cli_failure("run", path, "--steps", "1"))
                    self.assertIn(path, str(caught.exception))

    def test_loads_names_the_given_file_and_the_key(self):
        with self.assertRaises(clumplab.InputError) as caught:
            clumplab.loads({"format": "clumplab-scene/1", "time_step": 1e-4, "templates": {}, "bodies": [],
                            "contact": {"model": "linear", "stiffness": 1e4, "restitution": 0.5},
                            "gravity": [0, 0, "down"]}, file="sweep.py")
        self.assertTrue(str(caught.exception).startswith("sweep.py: gravity"), str(caught.exception))

    def test_nan_is_refused_everywhere_a_user_can_put_it(self):
        world = clumplab.load(os.path.join(SCENES, "tbar-dzhanibekov.json"))
        for attribute, value in (("gravity", [0, 0, math.nan]), ("time_step", math.nan), ("time", math.inf)):
            with self.subTest(attribute=attribute):
                with self.assertRaises(ValueError):
                    setattr(world, attribute, value)
        with self.assertRaises(ValueError):
            world.add_body(world.templates[0], position=[math.nan, 0, 0])
        with self.assertRaises(ValueError):
            world.add_body(world.templates[0], position=[0, 0, 0], orientation=[0, 0, 0, 0])
        with self.assertRaises(ValueError):
            world.step(-1)
        self.assertEqual(world.step(10), 10)


class Divergence(unittest.TestCase):
    def test_a_blow_up_stops_with_the_cli_explanation(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "stiff.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(STIFF, f)
            world = clumplab.load(path)
            with self.assertRaises(clumplab.DivergenceError) as caught:
                world.step(100)
            done = subprocess.run([CLI, "run", path, "--steps", "100"], capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 3)
        self.assertIsInstance(caught.exception, RuntimeError)
        self.assertEqual(str(caught.exception), done.stderr.strip().splitlines()[-1])
        self.assertIn("critical step", str(caught.exception))
        self.assertLess(world.step_count, 100)
        self.assertTrue(all(math.isfinite(v) for v in world.positions.ravel()))


if __name__ == "__main__":
    unittest.main()
