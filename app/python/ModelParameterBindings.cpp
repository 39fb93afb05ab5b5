// clumplab.model_parameters(): the model's bounded parameters with their declared ranges
// (core/model/ModelParameters.hpp), the ones the loader, the engine and the Parameters panel use.
#include <pybind11/pybind11.h>

#include "Bindings.hpp"
#include "core/model/ModelParameters.hpp"

namespace py = pybind11;

namespace clumplab::python {

void bindModelParameters(py::module_& m) {
  m.def(
      "_model_parameters",
      [] {
        py::list out;
        for (const ModelParameter& p : modelParameters()) {
          py::dict d;
          d["key"] = std::string(p.key);
          d["name"] = std::string(p.name);
          d["unit"] = std::string(p.unit);
          // A law's keys start with its model's name, as scene files spell it ("hertz-mindlin.poisson").
          d["law"] = p.law ? py::object(py::str(std::string(p.key.substr(0, p.key.find('.')))))
                           : py::object(py::none());
          d["integer"] = p.integer();
          d["lowest"] = p.range.lowest;
          d["highest"] = p.range.highest;
          d["lowest_included"] = p.range.lowestIncluded;
          d["highest_included"] = p.range.highestIncluded;
          d["smallest"] = p.range.smallestAccepted();
          d["largest"] = p.range.largestAccepted();
          d["requirement"] = p.range.requirement(std::string(p.unit));
          out.append(d);
        }
        return out;
      },
      "The model's bounded parameters: a dict per parameter with its scene-file key, name, unit, "
      "contact law, declared range and the smallest and largest values accepted");
}

}  // namespace clumplab::python
