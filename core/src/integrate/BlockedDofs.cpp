#include "core/integrate/BlockedDofs.hpp"

namespace clumplab {

namespace {
constexpr char kNames[] = {'x', 'y', 'z', 'X', 'Y', 'Z'};
}

bool parseBlockedDofs(std::string_view text, std::uint8_t& mask, std::string& problem) {
  mask = 0;
  for (const char c : text) {
    int bit = -1;
    for (int k = 0; k < 6; ++k) {
      if (kNames[k] == c) bit = k;
    }
    if (bit < 0) {
      problem = std::string("unknown degree of freedom '") + c +
                "' (use x, y, z for translations and X, Y, Z for rotations about the world axes)";
      return false;
    }
    if (mask & (1u << bit)) {
      problem = std::string("degree of freedom '") + c + "' named twice";
      return false;
    }
    mask = static_cast<std::uint8_t>(mask | (1u << bit));
  }
  return true;
}

std::string blockedDofsText(std::uint8_t mask) {
  std::string s;
  for (int k = 0; k < 6; ++k) {
    if (mask & (1u << k)) s += kNames[k];
  }
  return s;
}

unsigned freeRotationAxes(std::uint8_t mask) {
  return ~(unsigned(mask) >> 3) & 0b111u;
}

}  // namespace clumplab
