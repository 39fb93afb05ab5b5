#include "JsonReader.hpp"

#include <cmath>
#include <sstream>

#include "TextFile.hpp"

namespace clumplab::json_reader {

namespace {
std::string typeName(const Json& j) {
  return j.type_name();
}
}  // namespace

Json parse(const std::string& text, const std::string& file) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // Turn the byte offset into a line and column.
    std::size_t line = 1, column = 1;
    const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    const auto colon = what.rfind(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(file, "line " + std::to_string(line) + ", column " + std::to_string(column),
                     "not valid JSON: " + what);
  } catch (const Json::out_of_range& e) {  // a number beyond double's range, e.g. 1e400
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    throw InputError(file, "", "not valid JSON: " + what);
  }
}

Json parseFile(const std::string& path) {
  const std::string text = readTextFile(path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError(path, "", "the file is empty");
  return parse(text, path);
}

void Node::requireObject() const {
  if (!value_.is_object()) fail("expected an object, got " + typeName(value_));
}

void Node::allowOnly(std::initializer_list<std::string_view> allowed) const {
  allowOnly(std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

void Node::allowOnly(std::span<const std::string_view> allowed) const {
  requireObject();
  for (const auto& [key, unused] : value_.items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      throw InputError(file_, path_.empty() ? key : path_ + "." + key,
                       "unknown key \"" + key + "\" (allowed here: " + list + ")");
    }
  }
}

bool Node::has(std::string_view key) const {
  return value_.is_object() && value_.contains(key);
}

Node Node::child(std::string_view key) const {
  requireObject();
  const std::string p = path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  const auto it = value_.find(key);
  if (it == value_.end()) throw InputError(file_, p, "missing required field");
  return Node(*it, file_, p);
}

std::size_t Node::arraySize() const {
  if (!value_.is_array()) fail("expected an array, got " + typeName(value_));
  return value_.size();
}

Node Node::element(std::size_t index) const {
  if (index >= arraySize()) fail("index " + std::to_string(index) + " out of range");
  return Node(value_[index], file_, path_ + "[" + std::to_string(index) + "]");
}

double Node::number() const {
  if (!value_.is_number()) fail("expected a number, got " + typeName(value_));
  const double v = value_.get<double>();
  if (!std::isfinite(v)) fail("expected a finite number");
  return v;
}

double Node::positive() const {
  const double v = number();
  if (!(v > 0.0)) {
    std::ostringstream s;
    s << "must be positive (got " << v << ")";
    fail(s.str());
  }
  return v;
}

double Node::nonNegative() const {
  const double v = number();
  if (v < 0.0) {
    std::ostringstream s;
    s << "must not be negative (got " << v << ")";
    fail(s.str());
  }
  return v;
}

long long Node::integer() const {
  if (!value_.is_number_integer()) fail("expected a whole number, got " + typeName(value_));
  return value_.get<long long>();
}

std::string Node::string() const {
  if (!value_.is_string()) fail("expected a string, got " + typeName(value_));
  return value_.get<std::string>();
}

bool Node::boolean() const {
  if (!value_.is_boolean()) fail("expected true or false, got " + typeName(value_));
  return value_.get<bool>();
}

Vec3 Node::vec3() const {
  if (arraySize() != 3) fail("expected 3 numbers [x, y, z], got " + std::to_string(value_.size()));
  return Vec3(element(0).number(), element(1).number(), element(2).number());
}

Quat Node::quaternion() const {
  if (arraySize() != 4)
    fail("expected a quaternion [w, x, y, z], got " + std::to_string(value_.size()) + " numbers");
  Quat q(element(0).number(), element(1).number(), element(2).number(), element(3).number());
  if (!(q.norm() > 1e-12)) fail("a zero quaternion is not a rotation");
  return unitQuaternion(q);
}

Mat3 Node::matrix3() const {
  if (arraySize() != 3) fail("expected a 3x3 matrix (3 rows of 3 numbers)");
  Mat3 m;
  for (int r = 0; r < 3; ++r) m.row(r) = element(static_cast<std::size_t>(r)).vec3().transpose();
  return m;
}

double Node::nonNegativeOr(std::string_view key, double fallback) const {
  return has(key) ? child(key).nonNegative() : fallback;
}

double Node::positiveOr(std::string_view key, double fallback) const {
  return has(key) ? child(key).positive() : fallback;
}

long long Node::integerOr(std::string_view key, long long fallback) const {
  return has(key) ? child(key).integer() : fallback;
}

std::string Node::stringOr(std::string_view key, const std::string& fallback) const {
  return has(key) ? child(key).string() : fallback;
}

}  // namespace clumplab::json_reader
