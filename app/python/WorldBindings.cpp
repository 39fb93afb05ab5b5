// clumplab.World: a scene's world, stepped from Python with the GIL released (other Python threads
// run meanwhile) and Ctrl+C seen between slices of steps; the body arrays as numpy copies; the
// settings users change between steps.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>

#include "ArrayConversion.hpp"
#include "Bindings.hpp"
#include "JsonText.hpp"
#include "PythonWorld.hpp"
#include "TemplateHandle.hpp"
#include "core/export/PlacedPebbles.hpp"
#include "core/io/SceneWriter.hpp"
#include "shapes/SceneLoading.hpp"

namespace py = pybind11;

namespace clumplab::python {

namespace {

// Wall time of one slice of steps with the GIL released [s]: Ctrl+C is seen within about this long.
constexpr double kSliceSeconds = 0.05;

// `threads` > 0 replaces the scene's own count (as clumplab-cli's --threads).
std::unique_ptr<PythonWorld> worldOf(Scene scene, int threads) {
  if (threads < 0 || threads > 256) throw py::value_error("threads must lie in [1, 256]");
  if (threads > 0) scene.model.settings.threads = threads;
  return std::make_unique<PythonWorld>(std::move(scene));
}

long long stepWorld(PythonWorld& w, long long steps) {
  if (steps < 0) throw py::value_error("step: the number of steps must not be negative");
  long long done = 0;
  while (done < steps) {
    StepSlice slice;
    {
      py::gil_scoped_release release;
      slice = w.stepSlice(steps - done, kSliceSeconds);
    }
    done += slice.steps;
    if (slice.diverged) {
      raisePython(divergenceErrorType(), w.scene().file + ": " + w.world().state().divergence.message);
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl+C: KeyboardInterrupt
  }
  return done;
}

py::dict energyDict(const EnergyReport& e) {
  py::dict d;
  // The energy CSV's columns (docs/formats.md), then what its extra columns and the ledger add.
  d["time"] = e.time;
  d["ke_translational"] = e.keTranslational;
  d["ke_rotational"] = e.keRotational;
  d["pe_gravity"] = e.peGravity;
  d["pe_elastic"] = e.peElastic;
  d["dissipated"] = e.dissipated;
  d["total"] = e.total();
  d["px"] = e.momentum.x();
  d["py"] = e.momentum.y();
  d["pz"] = e.momentum.z();
  d["lx"] = e.angularMomentum.x();
  d["ly"] = e.angularMomentum.y();
  d["lz"] = e.angularMomentum.z();
  d["pe_fields"] = e.peFields;
  d["wall_work"] = e.wallWork;
  d["external_work"] = e.externalWork;
  d["inserted"] = e.inserted;
  d["balance"] = e.balance();
  return d;
}

std::uint32_t bodyIndex(const PythonWorld& w, long long body) {
  const auto n = static_cast<long long>(w.world().bodies().size());
  if (body < -n || body >= n)
    throw py::index_error("no body " + std::to_string(body) + " (the world has " + std::to_string(n) + ")");
  return static_cast<std::uint32_t>(body < 0 ? body + n : body);
}

// Replaces one body array from Python, checked, and tells the world its state changed.
template <typename Apply>
void setRows(PythonWorld& w, const py::handle& value, std::size_t columns, const char* what, Apply apply) {
  const std::size_t n = w.world().bodies().size();
  const auto a = checkedRows(value, n, columns, what);
  const double* data = a.data();
  for (std::size_t i = 0; i < n; ++i) apply(i, data + i * columns);
  w.world().stateChanged();
}

using WorldClass = py::class_<PythonWorld>;

// Making a world (from keys, a scene's text, a file) and saving it.
void bindWorldFiles(WorldClass& world) {
  world
      .def(py::init([](int threads, const py::kwargs& keys) {
             // A scene file's keys (docs/formats.md) as keyword arguments; no templates and no bodies
             // unless given (World.add_body brings them).
             py::dict scene;
             scene["format"] = "clumplab-scene/1";
             scene["templates"] = py::dict();
             scene["bodies"] = py::list();
             for (const auto& [key, value] : keys) scene[key] = value;
             return worldOf(
                 parseScene(jsonText(scene, "World"), "<clumplab.World>", shapes::sceneLoadOptions()),
                 threads);
           }),
           py::arg("threads") = 0,
           "A world from a scene file's keys: World(time_step=1e-4, contact={'model': 'linear', ...}, "
           "walls=[...], gravity=[0, 0, -9.81]); add_body fills it")
      .def_static(
          "_from_json",
          [](const std::string& text, const std::string& file, int threads) {
            return worldOf(parseScene(text, file, shapes::sceneLoadOptions()), threads);
          },
          py::arg("text"), py::arg("file"), py::arg("threads") = 0)
      .def_static(
          "_load",
          [](const std::string& path, int threads) {
            return worldOf(loadScene(path, shapes::sceneLoadOptions()), threads);
          },
          py::arg("path"), py::arg("threads") = 0)
      .def("save", &PythonWorld::save, py::arg("path"), "Writes the world as it is now as a scene file")
      .def(
          "_scene_json", [](const PythonWorld& w, const std::string& folder) { return w.sceneJson(folder); },
          py::arg("folder"))
      .def_property_readonly("file", [](const PythonWorld& w) { return w.scene().file; });
}

// Stepping, the clock and the model a script may change between steps.
void bindWorldClockAndModel(WorldClass& world) {
  world
      .def("step", &stepWorld, py::arg("n") = 1,
           "Takes n steps (the GIL released; Ctrl+C stops between steps); returns the steps taken. "
           "Raises DivergenceError if the world blows up (the steps before it stay taken).")
      .def_property(
          "time", [](const PythonWorld& w) { return w.world().time(); },
          [](PythonWorld& w, double t) {
            if (!std::isfinite(t)) throw py::value_error("time must be finite");
            w.world().setTime(t);
          },
          "Simulated time [s]")
      .def_property_readonly("step_count", [](const PythonWorld& w) { return w.world().stepCount(); })
      .def_property(
          "time_step", [](const PythonWorld& w) { return w.world().model().settings.timeStep; },
          [](PythonWorld& w, double dt) {
            w.world().editModel([&](EditableModel& model) { model.timeStep = dt; });
          },
          "Time step [s]")
      .def_property_readonly(
          "critical_time_step", [](const PythonWorld& w) { return w.world().timeSteps().critical; },
          "The stability limit of the stiffest, lightest contact [s] (an estimate)")
      .def_property_readonly(
          "recommended_time_step", [](const PythonWorld& w) { return w.world().timeSteps().recommended; },
          "A time step that resolves a contact in about ten steps [s]")
      .def_property(
          "gravity", [](const PythonWorld& w) { return vector3(w.world().model().settings.gravity); },
          [](PythonWorld& w, const py::handle& g) {
            w.world().editModel([&](EditableModel& model) { model.gravity = checkedVector3(g, "gravity"); });
          },
          "Gravity [m/s^2], a 3-vector")
      .def_property(
          "integrator",
          [](const PythonWorld& w) {
            return std::string(integratorName(w.world().model().settings.integrator));
          },
          [](PythonWorld& w, const std::string& name) {
            const auto kind = integratorFromName(name);
            if (!kind)
              throw py::value_error("unknown integrator \"" + name +
                                    "\" (use leapfrog, midpoint, splitting, cim or rk4)");
            w.world().editModel([&](EditableModel& model) { model.integrator = *kind; });
          })
      .def_property_readonly(
          "threads", [](const PythonWorld& w) { return w.world().model().settings.threads; },
          "Force-loop threads (results do not depend on them; load(..., threads=N))")
      .def("_contact_json", [](const PythonWorld& w) { return contactToJson(w.world().model().contact); })
      .def("_set_contact_json", [](PythonWorld& w, const std::string& text) {
        w.world().editModel(
            [&](EditableModel& model) { model.contact = contactFromJson(text, "<contact>"); });
      });
}

// The bodies: counts, templates and pebbles, energy, adding and removing.
// The bodies' arrays as NumPy arrays: poses and velocities read and written, masses and moments read.
void bindWorldBodyArrays(WorldClass& world) {
  world
      .def_property(
          "positions", [](const PythonWorld& w) { return vectorRows(w.world().bodies().position); },
          [](PythonWorld& w, const py::handle& v) {
            setRows(w, v, 3, "positions", [&](std::size_t i, const double* x) {
              w.world().bodies().position[i] = Vec3(x[0], x[1], x[2]);
            });
          },
          "Centres of mass [m], N x 3")
      .def_property(
          "orientations", [](const PythonWorld& w) { return quaternionRows(w.world().bodies().orientation); },
          [](PythonWorld& w, const py::handle& v) {
            setRows(w, v, 4, "orientations", [&](std::size_t i, const double* q) {
              const Quat r(q[0], q[1], q[2], q[3]);
              if (!(r.norm() > 0.0)) throw py::value_error("orientations: a zero quaternion is no rotation");
              w.world().bodies().orientation[i] = r.normalized();
            });
          },
          "Orientations of the principal frames, N x 4 (w, x, y, z)")
      .def_property(
          "velocities", [](const PythonWorld& w) { return vectorRows(w.world().bodies().velocity); },
          [](PythonWorld& w, const py::handle& v) {
            setRows(w, v, 3, "velocities", [&](std::size_t i, const double* x) {
              w.world().bodies().velocity[i] = Vec3(x[0], x[1], x[2]);
            });
          },
          "Velocities of the centres of mass [m/s], N x 3")
      .def_property(
          "angular_velocities",
          [](const PythonWorld& w) { return vectorRows(w.world().bodies().angularVelocity); },
          [](PythonWorld& w, const py::handle& v) {
            setRows(w, v, 3, "angular_velocities", [&](std::size_t i, const double* x) {
              w.world().bodies().angularVelocity[i] = Vec3(x[0], x[1], x[2]);
            });
          },
          "Angular velocities [rad/s], world frame, N x 3")
      .def_property_readonly("masses",
                             [](const PythonWorld& w) {
                               const std::vector<double>& mass = w.world().bodies().mass;
                               return py::array_t<double>(static_cast<py::ssize_t>(mass.size()), mass.data());
                             })
      .def_property_readonly("principal_moments",
                             [](const PythonWorld& w) { return vectorRows(w.world().bodies().moments); })
      .def_property_readonly("template_indices", [](const PythonWorld& w) {
        const std::vector<std::uint32_t>& t = w.world().bodies().templateIndex;
        return py::array_t<std::uint32_t>(static_cast<py::ssize_t>(t.size()), t.data());
      });
}

void bindWorldBodies(WorldClass& world) {
  world.def("__len__", [](const PythonWorld& w) { return w.world().bodies().size(); })
      .def_property_readonly("body_count", [](const PythonWorld& w) { return w.world().bodies().size(); })
      .def_property_readonly("pebble_count", [](const PythonWorld& w) { return w.world().pebbleCount(); })
      .def_property_readonly("contact_count", [](const PythonWorld& w) { return w.world().contactCount(); })
      .def_property_readonly("templates",
                             [](const PythonWorld& w) {
                               std::vector<TemplateHandle> out;
                               for (const TemplatePtr& t : w.world().model().templates) out.push_back({t});
                               return out;
                             })
      .def_property_readonly(
          "pebbles",
          [](const PythonWorld& w) {
            const PebbleArrays p = placedPebbles(w.world().bodies(), w.world().model().templates);
            return sphereRows(p.position, p.radius);
          },
          "Every pebble placed where its body is now: x, y, z, r [m], M x 4, body by body")
      .def(
          "energy", [](const PythonWorld& w) { return energyDict(w.world().energy()); },
          "The energy report: the energy CSV's columns (time, ke_translational, ..., lz) and more")
      .def(
          "add_body",
          [](PythonWorld& w, const TemplateHandle& t, const py::handle& position,
             const py::handle& orientation, const py::handle& velocity, const py::handle& angularVelocity) {
            return w.addBody(
                t.ptr, checkedVector3(position, "position"), checkedQuaternion(orientation, "orientation"),
                checkedVector3(velocity, "velocity"), checkedVector3(angularVelocity, "angular_velocity"));
          },
          py::arg("template"), py::arg("position"),
          py::arg("orientation") = py::make_tuple(1.0, 0.0, 0.0, 0.0),
          py::arg("velocity") = py::make_tuple(0.0, 0.0, 0.0),
          py::arg("angular_velocity") = py::make_tuple(0.0, 0.0, 0.0),
          "Adds a body of the template (centre of mass at position; orientation rotates the template as "
          "it was written, w x y z); returns its index")
      .def(
          "remove_body", [](PythonWorld& w, long long body) { w.world().removeBody(bodyIndex(w, body)); },
          py::arg("body"));
}

}  // namespace

void bindWorld(py::module_& m) {
  WorldClass world(m, "World", "A world of rigid clumps, loaded from a scene (clumplab.load)");
  bindWorldFiles(world);
  bindWorldClockAndModel(world);
  bindWorldBodyArrays(world);
  bindWorldBodies(world);
}

}  // namespace clumplab::python
