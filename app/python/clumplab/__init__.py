"""ClumpLab for Python: rigid clumps of overlapping spheres (docs/python.md).

    import clumplab
    world = clumplab.load("resources/scenes/tbar-bulk.json")
    world.step(1000)
    print(world.time, world.positions.shape, world.energy()["total"])

World, Template, InputError and DivergenceError come from the engine (_clumplab); load, loads,
inertia and fill are the scripting face of scene files and of clumplab-cli's inertia and fill.
"""
import json
import numbers
import os

from . import _clumplab
from ._clumplab import DivergenceError, InputError, Template, World

__all__ = ["World", "Template", "Contact", "InputError", "DivergenceError", "load", "loads", "inertia",
           "fill", "model_parameters", "__version__", "__revision__"]
__version__ = _clumplab.__version__
__revision__ = _clumplab.__revision__


def load(path, threads=None):
    """The world of a scene file (clumplab-scene/1). Raises InputError naming the file, the JSON path
    and the problem, as clumplab-cli does."""
    return World._load(os.fspath(path), threads or 0)


def loads(scene, threads=None, file="<scene>"):
    """The world of a scene given as a dict or as JSON text; relative paths in it resolve against
    the current folder. `file` names it in error messages."""
    text = scene if isinstance(scene, str) else json.dumps(scene, default=_plain)
    return World._from_json(text, file, threads or 0)


def model_parameters():
    """The model's bounded parameters, each a dict: "key" (its scene-file key; a contact law's after
    the law's name, "linear.restitution"), "name", "unit", "law" (None for every law), "integer",
    "lowest", "highest", "lowest_included", "highest_included", "smallest" and "largest" (the extreme
    values accepted) and "requirement" (as error messages say it). Scene files, World's setters and
    the app's Parameters panel accept exactly these ranges."""
    return _clumplab._model_parameters()


def inertia(path, method=None, density=None, scale=None, voxels=None, voxel_budget=None, samples=None,
            sequence=None, repair=False, max_triangles=None):
    """Mass properties of a mesh (STL, OBJ, PLY, ...), a template JSON, an `x y z r` pebble text or a
    MercuryDPM clump folder: the dict `clumplab-cli inertia` prints (volume, mass, center_of_mass,
    inertia_tensor, principal_moments, principal_axes, ...)."""
    args = _command_args(path, dict(method=method, density=density, scale=scale, voxels=voxels,
                                    voxel_budget=voxel_budget, samples=samples, sequence=sequence,
                                    max_triangles=max_triangles), dict(repair=repair))
    return json.loads(_clumplab._inertia_json(args))


def fill(mesh_path, spacing=None, count=None, radius=None, mode=None, band=None, min_radius=None,
         density=None, scale=None, inertia=None, pebbles=None, name=None, out=None, voxels=None,
         voxel_budget=None, samples=None, sequence=None, repair=False, max_triangles=None,
         target_dice=None, max_protrusion=None, max_count=None, scene=None, pile=None, seed=None):
    """A clump template from a mesh by regular-grid pebble fill (give spacing or count), by spheres
    of varied radii fitted to it (mode="spheres": target_dice, default 0.95, or count; max_protrusion
    [m], default 2% of the size; min_radius [m]; max_count, the largest count with a target; seed, 1 by
    default: another seed shifts the working grid and gives other spheres of like quality), or from
    the pebbles of another tool (pebbles=FILE): the template dict `clumplab-cli fill` prints, metrics
    included (with metrics["predicted_cost"] in a pile of `pile` bodies, 100 by default, under the
    contact law of the scene file `scene`, the engine's default law without one); written to `out`
    too when given. Template.from_dict(result) makes it a Template."""
    args = _command_args(mesh_path, dict(spacing=spacing, count=count, radius=radius, mode=mode, band=band,
                                         min_radius=min_radius, density=density, scale=scale,
                                         inertia=inertia, pebbles=pebbles, name=name, out=out,
                                         voxels=voxels, voxel_budget=voxel_budget, samples=samples,
                                         sequence=sequence, max_triangles=max_triangles,
                                         target_dice=target_dice, max_protrusion=max_protrusion,
                                         max_count=max_count, scene=scene, pile=pile, seed=seed),
                         dict(repair=repair))
    return json.loads(_clumplab._fill_json(args))


class Contact:
    """The contact law of a world, as the scene file's "contact" keys (docs/formats.md). Setting an
    attribute changes the live world from its next step, with the scene file's checks:

        world.contact.restitution = 0.3
        world.contact = {"model": "hertz", "young": 1e7, "restitution_squared": 0.8}
    """
    __slots__ = ("_world",)

    def __init__(self, world):
        object.__setattr__(self, "_world", world)

    def as_dict(self):
        return json.loads(self._world._contact_json())

    def __getattr__(self, key):
        values = self.as_dict()
        if key in values:
            return values[key]
        raise AttributeError(f"the {values['model']} contact model has no parameter '{key}' "
                             f"(it has {', '.join(values)})")

    def __setattr__(self, key, value):
        values = self.as_dict()
        if key == "model":
            raise AttributeError("to change the contact model, assign all of it: "
                                 "world.contact = {\"model\": ..., ...}")
        # A linear law's normal dashpot comes from a restitution or is given: setting one drops the other.
        exclusive = {"restitution": "damping", "damping": "restitution"}
        if values["model"] == "linear" and key in exclusive:
            values.pop(exclusive[key], None)
        values[key] = value
        self._world._set_contact_json(json.dumps(values, default=_plain))

    def __dir__(self):
        return sorted(self.as_dict())

    def __repr__(self):
        return f"Contact({self.as_dict()})"


def _contact(world):
    return Contact(world)


def _set_contact(world, value):
    if isinstance(value, Contact):
        value = value.as_dict()
    world._set_contact_json(value if isinstance(value, str) else json.dumps(value, default=_plain))


def _run(world, time):
    """Steps for `time` seconds of simulated time (rounded to whole steps); returns the steps taken."""
    if not time >= 0:
        raise ValueError("run: time must not be negative")
    return world.step(round(time / world.time_step))


World.contact = property(_contact, _set_contact, doc=Contact.__doc__)
World.run = _run


def _plain(value):
    """numpy arrays and scalars as JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{value!r} is not a JSON value")


def _command_args(path, options, flags):
    """clumplab-cli arguments: the file, then --key value for each option given (exact numbers), then
    the flags that are on."""
    args = [os.fspath(path)]
    for key, value in options.items():
        if value is None:
            continue
        if isinstance(value, bool):
            raise TypeError(f"{key}: expected a number or a text, got {value!r}")
        if isinstance(value, numbers.Integral):
            text = str(int(value))
        elif isinstance(value, numbers.Real):
            text = repr(float(value))
        else:
            text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
        args += ["--" + key.replace("_", "-"), text]
    args += ["--" + key.replace("_", "-") for key, on in flags.items() if on]
    return args
