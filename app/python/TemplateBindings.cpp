// clumplab.Template: a clump shape made the way a scene file's "templates" entry makes it (pebbles
// with a density, given inertia, a mesh filled with pebbles, a built-in shape) or read from a
// template file; its mass properties and pebbles in the principal frame.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "ArrayConversion.hpp"
#include "Bindings.hpp"
#include "JsonText.hpp"
#include "TemplateHandle.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"
#include "shapes/SceneLoading.hpp"

namespace py = pybind11;

namespace clumplab::python {

namespace {

// The one template of a scene text that defines it (and no bodies): the scene file's checks and
// messages, its paths relative to `file`'s folder.
TemplateHandle templateOfScene(const std::string& text, const std::string& file) {
  Scene scene;
  {
    py::gil_scoped_release release;  // a mesh fill can take a while
    scene = parseScene(text, file, shapes::sceneLoadOptions());
  }
  if (scene.model.templates.size() != 1) throw py::value_error("expected one template");
  return {scene.model.templates.front()};
}

py::array_t<double> pebbleRows(const ClumpTemplate& t) {
  std::vector<Vec3> centres;
  std::vector<double> radii;
  for (const Pebble& p : t.pebbles) centres.push_back(p.center), radii.push_back(p.radius);
  return sphereRows(centres, radii);
}

}  // namespace

void bindTemplate(py::module_& m) {
  py::class_<TemplateHandle>(m, "Template", "A clump shape: pebbles in its principal frame, mass and moments")
      .def(py::init([](const std::string& name, const py::kwargs& keys) {
             // The keys of a scene file's "templates" entry (docs/formats.md), read as a scene that
             // defines only this template (its time step and contact law are required, and unused).
             py::dict scene;
             scene["format"] = "clumplab-scene/1";
             scene["time_step"] = 1e-5;
             scene["contact"] = py::dict(py::arg("model") = "linear", py::arg("stiffness") = 1e3,
                                         py::arg("restitution") = 0.5);
             scene["bodies"] = py::list();
             py::dict templates;
             templates[py::str(name)] = keys;
             scene["templates"] = templates;
             return templateOfScene(jsonText(scene, "Template"), "<clumplab.Template>");
           }),
           py::arg("name"),
           "A template from a scene file's template keys: Template('tbar', density=2500, pebbles=[[x, y, z, "
           "r], "
           "...]), or mesh=..., shape=..., inertia=..., fill={...} (docs/formats.md)")
      .def_static(
          "load",
          [](const std::string& path) {
            return TemplateHandle{std::make_shared<const ClumpTemplate>(loadTemplateFile(path))};
          },
          py::arg("path"),
          "Reads a template file (clumplab-template/1), as clumplab.fill(..., out=PATH) writes")
      .def_static(
          "from_dict",
          [](const py::dict& d) {
            return TemplateHandle{std::make_shared<const ClumpTemplate>(
                parseTemplateFile(jsonText(d, "Template.from_dict"), "<dict>"))};
          },
          py::arg("template"), "A template from the dict clumplab.fill returns (clumplab-template/1)")
      .def_property_readonly("name", [](const TemplateHandle& t) { return t.ptr->name; })
      .def_property_readonly(
          "mass", [](const TemplateHandle& t) { return t.ptr->mass; }, "[kg]")
      .def_property_readonly(
          "volume", [](const TemplateHandle& t) { return t.ptr->volume; }, "[m^3]")
      .def_property_readonly(
          "density", [](const TemplateHandle& t) { return t.ptr->density; }, "[kg/m^3]")
      .def_property_readonly(
          "principal_moments", [](const TemplateHandle& t) { return vector3(t.ptr->principalMoments); },
          "I1 <= I2 <= I3 [kg m^2]")
      .def_property_readonly(
          "pebbles", [](const TemplateHandle& t) { return pebbleRows(*t.ptr); },
          "x, y, z, r [m] in the principal frame (centre of mass at the origin), M x 4")
      .def_property_readonly(
          "rotation_from_input",
          [](const TemplateHandle& t) {
            return quaternionRows({t.ptr->rotationFromInput}).attr("reshape")(4);
          },
          "x_body = q (x_input - c), w x y z")
      .def_property_readonly("center_of_mass_in_input",
                             [](const TemplateHandle& t) { return vector3(t.ptr->centerOfMassInInput); })
      .def_property_readonly("bounding_radius", [](const TemplateHandle& t) { return t.ptr->boundingRadius; })
      .def_property_readonly("inertia_method", [](const TemplateHandle& t) { return t.ptr->inertiaMethod; })
      .def(
          "to_json", [](const TemplateHandle& t) { return templateToJson(*t.ptr); },
          "The template file's JSON text (clumplab-template/1)")
      .def(
          "save", [](const TemplateHandle& t, const std::string& path) { saveTemplateFile(*t.ptr, path); },
          py::arg("path"), "Writes a template file (clumplab-template/1)")
      .def("__eq__", [](const TemplateHandle& a, const TemplateHandle& b) { return a.ptr == b.ptr; })
      .def("__hash__", [](const TemplateHandle& t) { return std::hash<const void*>()(t.ptr.get()); })
      .def("__repr__", [](const TemplateHandle& t) {
        return "<clumplab.Template '" + t.ptr->name + "': " + std::to_string(t.ptr->pebbles.size()) +
               " pebbles, mass " + py::repr(py::float_(t.ptr->mass)).cast<std::string>() + " kg>";
      });
}

}  // namespace clumplab::python
