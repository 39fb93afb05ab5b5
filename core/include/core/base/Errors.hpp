#pragma once
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

}  // namespace clumplab
