#include "ArrayConversion.hpp"

#include <cmath>

namespace py = pybind11;

namespace clumplab::python {

namespace {
std::string shapeText(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}
}  // namespace

py::array_t<double> vectorRows(const std::vector<Vec3>& v) {
  py::array_t<double> out({static_cast<py::ssize_t>(v.size()), py::ssize_t{3}});
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < 3; ++k) r(static_cast<py::ssize_t>(i), k) = v[i][k];
  return out;
}

py::array_t<double> quaternionRows(const std::vector<Quat>& q) {
  py::array_t<double> out({static_cast<py::ssize_t>(q.size()), py::ssize_t{4}});
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < q.size(); ++i) {
    const auto row = static_cast<py::ssize_t>(i);
    r(row, 0) = q[i].w();
    r(row, 1) = q[i].x();
    r(row, 2) = q[i].y();
    r(row, 3) = q[i].z();
  }
  return out;
}

py::array_t<double> sphereRows(const std::vector<Vec3>& centres, const std::vector<double>& radii) {
  py::array_t<double> out({static_cast<py::ssize_t>(centres.size()), py::ssize_t{4}});
  auto r = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < centres.size(); ++i) {
    const auto row = static_cast<py::ssize_t>(i);
    for (int k = 0; k < 3; ++k) r(row, k) = centres[i][k];
    r(row, 3) = radii[i];
  }
  return out;
}

py::array_t<double> vector3(const Vec3& v) {
  py::array_t<double> out(py::ssize_t{3});
  auto r = out.mutable_unchecked<1>();
  for (int k = 0; k < 3; ++k) r(k) = v[k];
  return out;
}

namespace {
// `value` as finite float64 of `shape`; a ValueError naming `what` otherwise.
py::array_t<double, py::array::c_style> checkedArray(const py::handle& value,
                                                     const std::vector<py::ssize_t>& shape,
                                                     const std::string& what) {
  py::array_t<double, py::array::c_style> a;
  try {
    a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  } catch (const py::error_already_set&) {
    a = {};
  }
  if (!a) throw py::value_error(what + ": expected numbers");
  bool shapeOk = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t d = 0; shapeOk && d < shape.size(); ++d)
    shapeOk = a.shape(static_cast<py::ssize_t>(d)) == shape[d];
  if (!shapeOk) {
    std::string expected = "(";
    for (std::size_t d = 0; d < shape.size(); ++d) expected += (d ? ", " : "") + std::to_string(shape[d]);
    expected += shape.size() == 1 ? ",)" : ")";
    throw py::value_error(what + ": expected shape " + expected + ", got " + shapeText(a));
  }
  const double* data = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(data[i])) throw py::value_error(what + ": every value must be finite");
  }
  return a;
}
}  // namespace

py::array_t<double, py::array::c_style> checkedRows(const py::handle& value, std::size_t rows,
                                                    std::size_t columns, const std::string& what) {
  return checkedArray(value, {static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(columns)}, what);
}

Vec3 checkedVector3(const py::handle& value, const std::string& what) {
  const auto a = checkedArray(value, {3}, what);
  return {a.data()[0], a.data()[1], a.data()[2]};
}

Quat checkedQuaternion(const py::handle& value, const std::string& what) {
  const auto a = checkedArray(value, {4}, what);
  const Quat q(a.data()[0], a.data()[1], a.data()[2], a.data()[3]);
  if (!(q.norm() > 0.0)) throw py::value_error(what + ": a zero quaternion is no rotation");
  return q.normalized();
}

}  // namespace clumplab::python
