#include "Arguments.hpp"

#include <cmath>
#include <cstdlib>

namespace clumplab::cli {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
                     const std::set<std::string>& flags) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      positional_.push_back(a);
      continue;
    }
    std::string key = a, value;
    const auto eq = a.find('=');
    if (eq != std::string::npos) {
      key = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (flags.count(key)) {
      values_.insert_or_assign(key, std::string(1, '1'));
    } else if (valued.count(key)) {
      if (eq == std::string::npos) {
        if (i + 1 >= args.size()) throw UsageError("option " + key + " needs a value");
        value = args[++i];
      }
      values_[key] = value;
    } else {
      throw UsageError("unknown option " + key);
    }
  }
}

std::optional<std::string> Arguments::text(const std::string& option) const {
  const auto it = values_.find(option);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> Arguments::number(const std::string& option) const {
  const auto t = text(option);
  if (!t) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t->c_str(), &end);
  if (t->empty() || *end != '\0' || !std::isfinite(v)) {
    throw UsageError("option " + option + " expects a number, got \"" + *t + "\"");
  }
  return v;
}

std::optional<long long> Arguments::integer(const std::string& option) const {
  const auto t = text(option);
  if (!t) return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(t->c_str(), &end, 10);
  if (t->empty() || *end != '\0' || v < 0) {
    throw UsageError("option " + option + " expects a whole number >= 0, got \"" + *t + "\"");
  }
  return v;
}

}  // namespace clumplab::cli
