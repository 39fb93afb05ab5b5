// clumplab-cli's inertia and fill for Python: the same arguments (the package turns keywords into
// them), the same JSON, and the same one-line message when the input is bad.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "Bindings.hpp"
#include "Commands.hpp"
#include "core/base/Errors.hpp"

namespace py = pybind11;

namespace clumplab::python {

namespace {

using CommandResult = nlohmann::json (*)(const std::vector<std::string>&);

std::string commandJson(const std::string& command, CommandResult result,
                        const std::vector<std::string>& args) {
  std::string text;
  std::string failure;
  bool badInput = false;  // clumplab-cli's exit code 2; anything else is its exit code 1
  {
    py::gil_scoped_release release;  // a voxel count or a fill can take a while
    try {
      text = result(args).dump();
    } catch (const std::exception& e) {
      failure = cli::failureLine(command, e);
      badInput = dynamic_cast<const InputError*>(&e) != nullptr ||
                 dynamic_cast<const cli::UsageError*>(&e) != nullptr;
    }
  }
  if (!failure.empty()) raisePython(badInput ? inputErrorType() : py::handle(PyExc_RuntimeError), failure);
  return text;
}

}  // namespace

void bindCommands(py::module_& m) {
  m.def(
      "_inertia_json",
      [](const std::vector<std::string>& args) { return commandJson("inertia", &cli::inertiaResult, args); },
      py::arg("args"), "clumplab-cli inertia ARGS, its JSON text");
  m.def(
      "_fill_json",
      [](const std::vector<std::string>& args) { return commandJson("fill", &cli::fillResult, args); },
      py::arg("args"), "clumplab-cli fill ARGS, its JSON text");
}

}  // namespace clumplab::python
