#pragma once
// The parts of the _clumplab extension module (Module.cpp puts them together; the clumplab
// package's __init__.py builds the Python API on them).
#include <pybind11/pybind11.h>

#include <string>

namespace clumplab::python {

void bindWorld(pybind11::module_& m);     // World: load, step, arrays, settings, save
void bindTemplate(pybind11::module_& m);  // Template: a clump shape, from a scene's template keys or a file
void bindCommands(pybind11::module_& m);  // clumplab-cli's inertia and fill, as JSON text
void bindModelParameters(pybind11::module_& m);  // the bounded parameters and their declared ranges

// The module's exception types: InputError (a ValueError: bad input, one line naming the file and
// the problem) and DivergenceError (a RuntimeError: the world blew up).
pybind11::handle inputErrorType();
pybind11::handle divergenceErrorType();
// Sets `type` with `message` as the Python error and throws error_already_set (the GIL held).
[[noreturn]] void raisePython(pybind11::handle type, const std::string& message);

}  // namespace clumplab::python
