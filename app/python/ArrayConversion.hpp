#pragma once
// Body arrays between the engine's Eigen vectors and numpy: N x 3 and N x 4 float64 copies, and
// arrays from Python checked for shape and finiteness with a message that names the attribute.
#include <pybind11/numpy.h>

#include <string>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab::python {

pybind11::array_t<double> vectorRows(const std::vector<Vec3>& v);      // N x 3
pybind11::array_t<double> quaternionRows(const std::vector<Quat>& q);  // N x 4, w x y z
pybind11::array_t<double> vector3(const Vec3& v);                      // shape (3,)
// Spheres as M x 4 rows x, y, z, r (pebbles of a template or of a world).
pybind11::array_t<double> sphereRows(const std::vector<Vec3>& centres, const std::vector<double>& radii);

// `value` as `rows` x `columns` finite float64 (any array-like numpy converts); a ValueError that
// names `what` otherwise.
pybind11::array_t<double, pybind11::array::c_style> checkedRows(const pybind11::handle& value,
                                                                std::size_t rows, std::size_t columns,
                                                                const std::string& what);
Vec3 checkedVector3(const pybind11::handle& value, const std::string& what);
Quat checkedQuaternion(const pybind11::handle& value, const std::string& what);  // w x y z, not zero

}  // namespace clumplab::python
