#pragma once
// Reading JSON with errors that name the file and the JSON path. Private to core.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/base/Errors.hpp"
#include "core/base/Math.hpp"

namespace clumplab::json_reader {

using Json = nlohmann::json;

// Parses text; a syntax error names the line and column.
Json parse(const std::string& text, const std::string& file);
// Reads a whole file (error if missing or unreadable) and parses it.
Json parseFile(const std::string& path);

class Node {
 public:
  Node(const Json& value, std::string file, std::string path)
      : value_(value), file_(std::move(file)), path_(std::move(path)) {}

  const Json& json() const { return value_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const std::string& problem) const { throw InputError(file_, path_, problem); }
  // Beyond a resource limit (ResourceLimits.hpp): `limit`'s name and the value that would pass.
  [[noreturn]] void failLimit(const std::string& problem, const std::string& limit,
                              std::uint64_t needed) const {
    throw LimitError(file_, path_, problem, limit, needed);
  }

  // Object checks: every key must be one of `allowed` (a typo must not fall back to a default).
  void requireObject() const;
  void allowOnly(std::initializer_list<std::string_view> allowed) const;
  void allowOnly(std::span<const std::string_view> allowed) const;
  bool has(std::string_view key) const;
  Node child(std::string_view key) const;  // error if missing
  Node element(std::size_t index) const;
  std::size_t arraySize() const;  // error if not an array

  double number() const;       // finite number
  double positive() const;     // > 0
  double nonNegative() const;  // >= 0
  long long integer() const;
  std::string string() const;
  bool boolean() const;
  Vec3 vec3() const;
  Quat quaternion() const;  // [w, x, y, z], normalised; zero is an error
  Mat3 matrix3() const;

  double positive(std::string_view key) const { return child(key).positive(); }

  // Optional fields: the value at `key`, checked as above, or `fallback` when the key is absent.
  double nonNegativeOr(std::string_view key, double fallback) const;
  double positiveOr(std::string_view key, double fallback) const;
  long long integerOr(std::string_view key, long long fallback) const;
  std::string stringOr(std::string_view key, const std::string& fallback) const;

 private:
  const Json& value_;
  std::string file_;
  std::string path_;
};

}  // namespace clumplab::json_reader
