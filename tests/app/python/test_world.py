"""clumplab.World against clumplab-cli and against closed-form motion: loading, stepping, the
body arrays, the energy report, settings changed between steps, saving."""
import math
import os
import tempfile
import unittest

import numpy as np

import clumplab
from support import SCENES, cli_json, read_csv

ENERGY_COLUMNS = ("time,ke_translational,ke_rotational,pe_gravity,pe_elastic,dissipated,total,"
                  "px,py,pz,lx,ly,lz").split(",")


def empty_world(**keys):
    """A world with no bodies: a scene file's required keys, and any others given."""
    return clumplab.World(time_step=1e-4, contact={"model": "linear", "stiffness": 1e4, "restitution": 0.5}, **keys)


def dumbbell(density=1000.0, r=0.01, d=0.03):
    """Two touching-free spheres of radius r at +-d on x: a closed-form clump."""
    return clumplab.Template("dumbbell", density=density, pebbles=[[-d, 0, 0, r], [d, 0, 0, r]])


class WorldAgainstCli(unittest.TestCase):
    def test_steps_give_the_cli_run_bit_for_bit(self):
        """500 steps of the default scene (84 clumps piling up, contacts and friction) from Python
        and from clumplab-cli run: the same states to the CSV's 12 digits, the same energy."""
        scene = os.path.join(SCENES, "default.json")
        with tempfile.TemporaryDirectory() as folder:
            states = os.path.join(folder, "states.csv")
            energy = os.path.join(folder, "energy.csv")
            cli_json("run", scene, "--steps", "500", "--every", "500", "--states", states, "--energy", energy)
            rows = [r for r in read_csv(states) if r["time"] > 0]
            energy_row = read_csv(energy)[-1]
        world = clumplab.load(scene)
        self.assertEqual(world.step(500), 500)
        self.assertEqual(world.step_count, 500)
        positions, orientations = world.positions, world.orientations
        velocities, spins = world.velocities, world.angular_velocities
        self.assertEqual(positions.shape, (len(world), 3))
        self.assertEqual(orientations.shape, (len(world), 4))
        self.assertEqual(len(rows), len(world))
        for row in rows:
            b = int(row["body"])
            expected = [row[k] for k in ("x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz")]
            got = [*positions[b], *orientations[b], *velocities[b], *spins[b]]
            for e, g in zip(expected, got):
                self.assertAlmostEqual(g, e, delta=1e-11 * max(1.0, abs(e)))
        report = world.energy()
        self.assertEqual(list(report)[:len(ENERGY_COLUMNS)], ENERGY_COLUMNS)
        for key in ENERGY_COLUMNS:
            self.assertAlmostEqual(report[key], energy_row[key], delta=1e-11 * max(1.0, abs(energy_row[key])))

    def test_run_takes_whole_steps_of_the_time(self):
        world = clumplab.load(os.path.join(SCENES, "tbar-dzhanibekov.json"))
        steps = world.run(0.05)
        self.assertEqual(steps, round(0.05 / world.time_step))
        self.assertAlmostEqual(world.time, 0.05, delta=1e-12)


class ClosedForm(unittest.TestCase):
    def test_template_from_pebbles_has_the_dumbbells_mass_and_moments(self):
        rho, r, d = 1000.0, 0.01, 0.03
        t = dumbbell(rho, r, d)
        m1 = rho * 4.0 / 3.0 * math.pi * r ** 3
        self.assertAlmostEqual(t.mass, 2 * m1, delta=1e-12 * t.mass)
        own = 0.4 * m1 * r * r
        expected = sorted([2 * own, 2 * own + 2 * m1 * d * d, 2 * own + 2 * m1 * d * d])
        np.testing.assert_allclose(t.principal_moments, expected, rtol=1e-12)
        self.assertEqual(t.pebbles.shape, (2, 4))
        self.assertAlmostEqual(abs(t.pebbles[0, :3]).max(), d, delta=1e-15)

    def test_free_flight_is_exact_and_spin_keeps_energy(self):
        """No gravity, one body: x = x0 + v t; a spin about a principal axis keeps its rate."""
        world = empty_world()
        world.gravity = [0, 0, 0]
        world.time_step = 1e-4
        t = dumbbell()
        index = world.add_body(t, position=[0.1, 0.2, 0.3], velocity=[1.0, -2.0, 0.5],
                               angular_velocity=[0, 0, 3.0])
        self.assertEqual(index, 0)
        world.step(1000)
        np.testing.assert_allclose(world.positions[0], [0.2, 0.0, 0.35], atol=1e-12)
        np.testing.assert_allclose(world.angular_velocities[0], [0, 0, 3.0], atol=1e-12)
        e = world.energy()
        self.assertAlmostEqual(e["ke_rotational"], 0.5 * t.principal_moments[2] * 9.0,
                               delta=1e-12 * e["ke_rotational"])

    def test_orientation_rotates_the_template_as_written(self):
        """A body turned 90 degrees about z puts the dumbbell's axis (x as written) along y."""
        world = empty_world()
        world.gravity = [0, 0, 0]
        half = math.sqrt(0.5)
        world.add_body(dumbbell(), position=[0, 0, 0], orientation=[half, 0, 0, half])
        pebbles = world.pebbles
        np.testing.assert_allclose(sorted(pebbles[:, 1]), [-0.03, 0.03], atol=1e-15)
        np.testing.assert_allclose(pebbles[:, 0], [0, 0], atol=1e-15)

    def test_gravity_changed_between_steps(self):
        """Free fall under g for n steps, then none: the velocity stops changing at once."""
        world = empty_world()
        world.add_body(dumbbell(), position=[0, 0, 0])
        world.time_step = 1e-3
        world.step(100)
        np.testing.assert_allclose(world.velocities[0], [0, 0, -9.81 * 0.1], rtol=1e-12)
        world.gravity = (0.0, 0.0, 0.0)
        world.step(100)
        np.testing.assert_allclose(world.velocities[0], [0, 0, -9.81 * 0.1], rtol=1e-12)
        np.testing.assert_array_equal(world.gravity, [0, 0, 0])

    def test_time_step_changed_between_steps(self):
        world = empty_world()
        world.add_body(dumbbell(), position=[0, 0, 0])
        world.time_step = 1e-3
        world.step(10)
        world.time_step = 2e-3
        world.step(10)
        self.assertAlmostEqual(world.time, 0.03, delta=1e-15)
        with self.assertRaises(ValueError):
            world.time_step = -1.0


class Restitution(unittest.TestCase):
    def drop(self, restitution):
        """A sphere dropped on a floor at 1 m/s, no gravity: its rebound speed over 1 m/s."""
        world = clumplab.loads({
            "format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, 0],
            "contact": {"model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.0},
            "walls": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}],
            "templates": {"ball": {"density": 1000, "pebbles": [[0, 0, 0, 0.01]]}},
            "bodies": [{"template": "ball", "position": [0, 0, 0.0105], "velocity": [0, 0, -1]}]})
        world.contact.restitution = restitution
        world.step(2000)
        return world.velocities[0][2]

    def test_contact_restitution_set_between_steps_is_the_rebound(self):
        """The linear spring-dashpot's closed-form restitution (damping ratio from e) for a sphere
        on a wall: the rebound speed is e times the impact speed (about 200 steps per contact)."""
        for e in (0.3, 0.9):  # within 1%, as the core's head-on test (the contact ends on a step)
            self.assertAlmostEqual(self.drop(e), e, delta=0.01 * e)

    def test_contact_parameters_read_and_checked(self):
        world = clumplab.load(os.path.join(SCENES, "default.json"))
        contact = world.contact.as_dict()
        self.assertEqual(contact["model"], "linear")
        world.contact.friction = 0.25
        self.assertEqual(world.contact.friction, 0.25)
        world.contact.damping = 0.01
        self.assertNotIn("restitution", world.contact.as_dict())
        with self.assertRaises(clumplab.InputError) as caught:
            world.contact.restitution = 1.5
        self.assertIn("contact.restitution: must lie in [0, 1] (got", str(caught.exception))
        self.assertEqual(world.contact.damping, 0.01)  # the world kept its law
        with self.assertRaises(clumplab.InputError) as caught:
            world.contact.stifness = 1.0
        self.assertIn("stifness", str(caught.exception))
        with self.assertRaises(AttributeError):
            world.contact.young
        world.contact = {"model": "hertz", "young": 1e7}
        self.assertEqual(world.contact.model, "hertz")


class DeclaredRanges(unittest.TestCase):
    """Each bounded parameter of clumplab.model_parameters(): a scene's key, World's setters and a
    saved world take its smallest and largest values and refuse the numbers just beyond them, as the
    loader and the app's Parameters panel do (tst_model_parameters, tst_gui_parameters)."""
    CONTACTS = {"linear": {"model": "linear", "stiffness": 1e4, "restitution": 0.5},
                "hertz": {"model": "hertz", "young": 5e8},
                "hertz-mindlin": {"model": "hertz-mindlin", "youngs_modulus": 7e9, "poisson": 0.25,
                                  "restitution": 0.5}}

    def scene(self, p, value):
        contact = dict(self.CONTACTS[p["law"] or "linear"])
        if p["key"] == "linear.damping":
            del contact["restitution"]
        scene = {"format": "clumplab-scene/1", "time_step": 1e-5, "contact": contact,
                 "templates": {"ball": {"density": 2500, "pebbles": [[0, 0, 0, 0.01]]}},
                 "bodies": [{"template": "ball", "position": [0, 0, 0.1]}]}
        value = int(value) if p["integer"] else value
        if p["law"]:
            contact[p["key"].split(".")[-1]] = value
        elif "." in p["key"]:
            outer, inner = p["key"].split(".")
            scene[outer] = {inner: value}
        else:
            scene[p["key"]] = value
        return scene

    @staticmethod
    def beyond(p):
        if p["integer"]:
            return [p["lowest"] - 1] + ([p["highest"] + 1] if math.isfinite(p["highest"]) else [])
        out = [math.nextafter(p["smallest"], -math.inf)]
        if math.isfinite(p["highest"]):
            out.append(math.nextafter(p["largest"], math.inf))
        return out

    def test_every_parameter_at_its_edges(self):
        parameters = clumplab.model_parameters()
        keys = [p["key"] for p in parameters]
        for key in ("time_step", "linear.restitution", "hertz.poisson", "hertz-mindlin.poisson"):
            self.assertIn(key, keys)
        step = parameters[keys.index("time_step")]
        self.assertEqual((step["smallest"], step["largest"], step["unit"]), (1e-15, 100.0, "s"))
        self.assertEqual(parameters[keys.index("hertz-mindlin.poisson")]["largest"], math.nextafter(0.5, 0))
        with tempfile.TemporaryDirectory() as folder:
            for p in parameters:
                leaf = p["key"].split(".")[-1]
                with self.subTest(p["key"]):
                    for edge in (p["smallest"], p["largest"]):
                        world = clumplab.loads(self.scene(p, edge))
                        if p["key"] == "time_step":
                            world.time_step = 1e-5
                            world.time_step = edge
                            self.assertEqual(world.time_step, edge)
                            path = os.path.join(folder, "edge.json")
                            world.save(path)
                            self.assertEqual(clumplab.load(path).time_step, edge)
                        if p["law"]:
                            setattr(world.contact, leaf, edge)
                            self.assertEqual(getattr(world.contact, leaf), edge)
                    for bad in self.beyond(p):
                        with self.assertRaises(clumplab.InputError) as caught:
                            clumplab.loads(self.scene(p, bad), file="bad.json")
                        self.assertIn(p["requirement"], str(caught.exception))
                        world = clumplab.loads(self.scene(p, p["smallest"]))
                        if p["key"] == "time_step":
                            with self.assertRaises(ValueError):
                                world.time_step = bad
                            self.assertEqual(world.time_step, p["smallest"])
                        if p["law"]:
                            with self.assertRaises(ValueError):
                                setattr(world.contact, leaf, bad)


class Arrays(unittest.TestCase):
    def test_set_states_are_checked_and_used(self):
        world = empty_world()
        world.gravity = [0, 0, 0]
        for x in (0.0, 1.0):
            world.add_body(dumbbell(), position=[x, 0, 0])
        world.velocities = np.array([[1.0, 0, 0], [0, 1.0, 0]])
        world.step(10)
        np.testing.assert_allclose(world.positions, [[10 * world.time_step, 0, 0], [1.0, 10 * world.time_step, 0]],
                                   atol=1e-15)
        with self.assertRaises(ValueError) as caught:
            world.positions = np.zeros((3, 3))
        self.assertIn("positions: expected shape (2, 3), got (3, 3)", str(caught.exception))
        with self.assertRaises(ValueError):
            world.velocities = [[math.nan, 0, 0], [0, 0, 0]]
        with self.assertRaises(ValueError):
            world.orientations = np.zeros((2, 4))
        world.orientations = [[2, 0, 0, 0], [0, 0, 0, 1]]
        np.testing.assert_allclose(world.orientations[0], [1, 0, 0, 0])
        world.remove_body(-1)
        self.assertEqual(len(world), 1)
        with self.assertRaises(IndexError):
            world.remove_body(5)

    def test_arrays_are_copies(self):
        world = empty_world()
        world.add_body(dumbbell(), position=[0, 0, 0])
        p = world.positions
        p[0, 0] = 5.0
        self.assertEqual(world.positions[0, 0], 0.0)


class Saving(unittest.TestCase):
    def test_saved_world_loads_back_to_the_same_bits_and_steps_on_alike(self):
        world = clumplab.load(os.path.join(SCENES, "default.json"))
        world.step(200)
        world.contact.restitution = 0.2
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "saved.json")
            world.save(path)
            again = clumplab.load(path)
        self.assertEqual(again.time, world.time)
        self.assertEqual(again.contact.restitution, 0.2)
        np.testing.assert_array_equal(again.positions, world.positions)
        np.testing.assert_array_equal(again.angular_velocities, world.angular_velocities)
        world.step(50)
        again.step(50)
        np.testing.assert_allclose(again.positions, world.positions, atol=1e-9)

    def test_added_templates_are_saved(self):
        world = empty_world()
        world.add_body(dumbbell(), position=[0, 0, 1], velocity=[0.5, 0, 0])
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "built.json")
            world.save(path)
            again = clumplab.load(path)
        self.assertEqual(len(again.templates), 1)
        self.assertAlmostEqual(again.templates[0].mass, world.templates[0].mass, delta=1e-15)
        np.testing.assert_array_equal(again.velocities, world.velocities)


if __name__ == "__main__":
    unittest.main()
