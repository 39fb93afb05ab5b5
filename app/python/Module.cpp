// _clumplab: ClumpLab's core and shapes for Python (the clumplab package wraps it; docs/python.md).
// Errors arrive as clumplab.InputError (a ValueError) with the one line clumplab-cli prints for the
// same mistake, and clumplab.DivergenceError (a RuntimeError) when a world blows up.
#include <pybind11/pybind11.h>

#include "Bindings.hpp"
#include "core/base/Errors.hpp"
#include "core/base/Version.hpp"

namespace py = pybind11;

namespace clumplab::python {

namespace {
// Created once, at import; the module owns them.
py::handle inputErrorHandle;
py::handle divergenceErrorHandle;
}  // namespace

py::handle inputErrorType() {
  return inputErrorHandle;
}

py::handle divergenceErrorType() {
  return divergenceErrorHandle;
}

void raisePython(py::handle type, const std::string& message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

}  // namespace clumplab::python

PYBIND11_MODULE(_clumplab, m) {
  using namespace clumplab::python;
  m.doc() = "ClumpLab's engine: rigid clumps of spheres (the clumplab package wraps it)";
  m.attr("__version__") = clumplab::clumplabVersion();
  m.attr("__revision__") = clumplab::clumplabRevision();
  static py::exception<clumplab::InputError> inputError(m, "InputError", PyExc_ValueError);
  static py::exception<std::range_error> divergence(m, "DivergenceError", PyExc_RuntimeError);
  inputErrorHandle = inputError;
  divergenceErrorHandle = divergence;
  // Bad input from core and shapes (scene files, template keys, meshes): the message as is.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const clumplab::InputError& e) {
      PyErr_SetString(inputErrorHandle.ptr(), e.what());
    }
  });
  bindWorld(m);
  bindTemplate(m);
  bindCommands(m);
  bindModelParameters(m);
}
