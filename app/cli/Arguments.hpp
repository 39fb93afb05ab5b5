#pragma once
// Command-line options of clumplab-cli: positional arguments and --key value pairs.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace clumplab::cli {

// A usage mistake on the command line (exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Arguments {
 public:
  // `valued`: options that take a value; `flags`: options that do not.
  Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
            const std::set<std::string>& flags = {});

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& option) const { return values_.count(option) != 0; }
  std::optional<std::string> text(const std::string& option) const;
  std::optional<double> number(const std::string& option) const;      // finite
  std::optional<long long> integer(const std::string& option) const;  // >= 0

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> values_;
};

}  // namespace clumplab::cli
