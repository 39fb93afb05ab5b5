#include "Commands.hpp"
#include "core/base/Errors.hpp"

namespace clumplab::cli {

std::string failureLine(const std::string& command, const std::exception& error) {
  if (dynamic_cast<const InputError*>(&error) != nullptr) return error.what();
  return "clumplab-cli " + command + ": " + error.what();
}

}  // namespace clumplab::cli
