#pragma once
// Small pieces of VTK's XML file format (ASCII data arrays), shared by the .vtu and .vtp writers.
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab::vtkxml {

// A number with the fewest of 15, 16 or 17 significant digits that reads back exactly.
inline void putNumber(std::ostream& out, double x) {
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    if (digits == 17 || std::strtod(buffer, nullptr) == x) break;
  }
  out << buffer;
}

inline void scalars(std::ostream& out, const std::string& name, const std::vector<double>& values) {
  out << "<DataArray type=\"Float64\" Name=\"" << name << "\" format=\"ascii\">\n";
  for (double v : values) {
    putNumber(out, v);
    out << '\n';
  }
  out << "</DataArray>\n";
}

inline void integers(std::ostream& out, const std::string& name, const std::vector<long long>& values,
                     const char* type = "Int64") {
  out << "<DataArray type=\"" << type << "\" Name=\"" << name << "\" format=\"ascii\">\n";
  for (long long v : values) out << v << '\n';
  out << "</DataArray>\n";
}

// `components` numbers per tuple, taken from `rows` of Eigen vectors (Vec3 or 4-vectors).
template <class Row>
void tuples(std::ostream& out, const std::string& name, const std::vector<Row>& rows) {
  out << "<DataArray type=\"Float64\" Name=\"" << name << "\" NumberOfComponents=\"" << Row::RowsAtCompileTime
      << "\" format=\"ascii\">\n";
  for (const Row& r : rows) {
    for (int c = 0; c < Row::RowsAtCompileTime; ++c) {
      if (c > 0) out << ' ';
      putNumber(out, r[c]);
    }
    out << '\n';
  }
  out << "</DataArray>\n";
}

// Strings as VTK's XML reader takes them in ASCII: each string's bytes as integers, then a 0.
inline void strings(std::ostream& out, const std::string& name, const std::vector<std::string>& values) {
  out << "<Array type=\"String\" Name=\"" << name << "\" NumberOfTuples=\"" << values.size()
      << "\" format=\"ascii\">\n";
  for (const std::string& s : values) {
    for (unsigned char c : s) out << static_cast<int>(c) << ' ';
    out << "0\n";
  }
  out << "</Array>\n";
}

// Text safe inside an XML attribute.
inline std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace clumplab::vtkxml
