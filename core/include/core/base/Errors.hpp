#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace clumplab {

// Bad user input: names the file, the place in it (a JSON path or a line) and the problem.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& where, const std::string& problem)
      : std::runtime_error(compose(file, where, problem)) {}

 private:
  static std::string compose(const std::string& file, const std::string& where, const std::string& problem) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (!where.empty()) s += ": " + where;
    return s + ": " + problem;
  }
};

// Input that asks for more than a resource limit allows (ResourceLimits.hpp): `limit` is its name
// ("pebbles", "fill-points", "triangles", "memory-mb") and `needed` the value that would let it
// through (a lower bound where the input was not read to its end), so that a front end can offer to
// raise it. The message ends with how to raise it where the front end has said how (limitAdvice).
class LimitError : public InputError {
 public:
  LimitError(const std::string& file, const std::string& where, const std::string& problem, std::string limit,
             std::uint64_t needed);
  const std::string& limit() const { return limit_; }
  std::uint64_t needed() const { return needed_; }

 private:
  std::string limit_;
  std::uint64_t needed_ = 0;
};

}  // namespace clumplab
