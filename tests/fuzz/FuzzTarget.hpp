#pragma once
// The contract every fuzz target checks: a loader given any bytes either returns a result or throws
// clumplab::InputError, whose message names the file. Any other exception, a crash, a sanitizer report
// or a hang is a bug. Built as a libFuzzer target under the `fuzz` preset (clang) and, with
// FuzzReplayMain.cpp, as a plain executable that replays the corpus in the ordinary test suite.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "core/base/Errors.hpp"

namespace clumplab::fuzz {

// The file name loaders are given; every InputError must carry it.
inline constexpr const char* kInputName = "fuzz-input";

template <class Body>
void expectOnlyInputErrors(Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    if (std::string_view(e.what()).find(kInputName) == std::string_view::npos) {
      std::fprintf(stderr, "InputError without the file's name: %s\n", e.what());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "not an InputError: %s\n", e.what());
    std::abort();
  }
}

inline std::string asText(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace clumplab::fuzz
