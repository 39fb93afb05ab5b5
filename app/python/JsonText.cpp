#include "JsonText.hpp"

namespace py = pybind11;

namespace clumplab::python {

std::string jsonText(const py::handle& value, const std::string& what) {
  const py::object dumps = py::module_::import("json").attr("dumps");
  const py::cpp_function plain([what](const py::handle& o) -> py::object {
    if (py::hasattr(o, "tolist")) return o.attr("tolist")();  // numpy arrays and scalars
    throw py::type_error(what + ": " + py::repr(o).cast<std::string>() + " is not a JSON value");
  });
  return dumps(value, py::arg("default") = plain).cast<std::string>();
}

}  // namespace clumplab::python
