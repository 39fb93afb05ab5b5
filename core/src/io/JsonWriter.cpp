#include "JsonWriter.hpp"

namespace clumplab::json_writer {

namespace {

bool scalarRow(const OrderedJson& j) {  // an array of scalars
  if (!j.is_array()) return false;
  for (const OrderedJson& e : j) {
    if (e.is_structured()) return false;
  }
  return true;
}

// Printed on one line: a scalar, an array of scalars, or an object of scalars and such arrays.
bool flat(const OrderedJson& j) {
  if (!j.is_structured()) return true;
  if (j.is_array()) return scalarRow(j);
  for (const auto& [key, value] : j.items()) {
    if (value.is_structured() && !scalarRow(value)) return false;
  }
  return true;
}

void write(const OrderedJson& j, int indent, std::string& out) {
  if (!j.is_structured()) {
    out += j.dump();
    return;
  }
  const bool object = j.is_object();
  if (j.empty()) {
    out += object ? "{}" : "[]";
    return;
  }
  if (flat(j)) {
    out += object ? "{" : "[";
    bool first = true;
    for (const auto& [key, value] : j.items()) {
      if (!first) out += ", ";
      first = false;
      if (object) {
        out += OrderedJson(key).dump();
        out += ": ";
      }
      write(value, indent, out);
    }
    out += object ? "}" : "]";
    return;
  }
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  out += object ? "{\n" : "[\n";
  bool first = true;
  for (const auto& [key, value] : j.items()) {
    if (!first) out += ",\n";
    first = false;
    out += inner;
    if (object) {
      out += OrderedJson(key).dump();
      out += ": ";
    }
    write(value, indent + 2, out);
  }
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
  out += object ? '}' : ']';
}

}  // namespace

std::string pretty(const OrderedJson& value) {
  std::string out;
  write(value, 0, out);
  out += "\n";
  return out;
}

}  // namespace clumplab::json_writer
