#pragma once
// Python values as JSON text (Python's json.dumps, numpy arrays and scalars as lists and numbers),
// for the parts of the module that hand keyword arguments to the scene file's reader.
#include <pybind11/pybind11.h>

#include <string>

namespace clumplab::python {

// `what` names the caller in the TypeError raised for a value JSON cannot hold.
std::string jsonText(const pybind11::handle& value, const std::string& what);

}  // namespace clumplab::python
