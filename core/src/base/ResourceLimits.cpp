#include "core/base/ResourceLimits.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "core/base/Errors.hpp"

namespace clumplab {

namespace {
std::mutex& limitsMutex() {
  static std::mutex m;
  return m;
}
ResourceLimits& limitsInForce() {
  static ResourceLimits limits = ResourceLimits::fromEnvironment();
  return limits;
}
// A positive whole number from the environment, or nothing.
template <class T>
void readCount(const char* name, T& out) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v == 0 || text[0] == '-') {
    throw std::invalid_argument(std::string(name) + "=" + text + ": expected a positive whole number");
  }
  out = static_cast<T>(v);
}
}  // namespace

ResourceLimits ResourceLimits::fromEnvironment() {
  ResourceLimits l;
  readCount("CLUMPLAB_MAX_PEBBLES", l.maxPebbles);
  readCount("CLUMPLAB_MAX_FILL_POINTS", l.maxFillPoints);
  readCount("CLUMPLAB_MAX_TRIANGLES", l.maxTriangles);
  readCount("CLUMPLAB_MAX_MEMORY_MB", l.maxMemoryMB);
  return l;
}

std::size_t ResourceLimits::memoryBytes() const {
  if (maxMemoryMB > 0) return maxMemoryMB * (std::size_t(1) << 20);
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  const std::size_t ram = pages > 0 && pageSize > 0
                              ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize)
                              : std::size_t(8) << 30;
  return ram / 4 * 3;
}

ResourceLimits resourceLimits() {
  std::lock_guard lock(limitsMutex());
  return limitsInForce();
}

void setResourceLimits(const ResourceLimits& limits) {
  std::lock_guard lock(limitsMutex());
  limitsInForce() = limits;
}

void takeLimitOptions(std::vector<std::string>& args) {
  ResourceLimits limits = resourceLimits();
  bool changed = false;
  for (std::size_t i = 0; i < args.size();) {
    const std::string& option = args[i];
    unsigned long long value = 0;
    if (option != "--max-pebbles" && option != "--max-fill-points" && option != "--max-triangles" &&
        option != "--max-memory-mb") {
      ++i;
      continue;
    }
    if (i + 1 >= args.size()) throw std::invalid_argument(option + ": expected a positive whole number");
    const std::string& text = args[i + 1];
    char* end = nullptr;
    value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value == 0 || text[0] == '-') {
      throw std::invalid_argument(option + " " + text + ": expected a positive whole number");
    }
    if (option == "--max-pebbles") limits.maxPebbles = static_cast<std::size_t>(value);
    if (option == "--max-fill-points") limits.maxFillPoints = static_cast<std::int64_t>(value);
    if (option == "--max-triangles") limits.maxTriangles = static_cast<std::size_t>(value);
    if (option == "--max-memory-mb") limits.maxMemoryMB = static_cast<std::size_t>(value);
    changed = true;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
  }
  if (changed) setResourceLimits(limits);
}

namespace {
std::atomic<LimitAdvice> gLimitAdvice{LimitAdvice::CommandLine};
}

void setLimitAdvice(LimitAdvice advice) {
  gLimitAdvice = advice;
}

std::string withHowToRaise(const std::string& problem, const std::string& limit) {
  const std::string advice = howToRaise(limit);
  return advice.empty() ? problem : problem + " (" + advice + ")";
}

ResourceLimits raised(ResourceLimits limits, const std::string& limit, std::uint64_t value) {
  if (limit == "pebbles") limits.maxPebbles = std::max<std::size_t>(limits.maxPebbles, value);
  if (limit == "fill-points")
    limits.maxFillPoints = std::max<std::int64_t>(limits.maxFillPoints, static_cast<std::int64_t>(value));
  if (limit == "triangles") limits.maxTriangles = std::max<std::size_t>(limits.maxTriangles, value);
  if (limit == "memory-mb") limits.maxMemoryMB = std::max<std::size_t>(limits.memoryBytes() >> 20, value);
  return limits;
}

LimitError::LimitError(const std::string& file, const std::string& where, const std::string& problem,
                       std::string limit, std::uint64_t needed)
    : InputError(file, where, withHowToRaise(problem, limit)), limit_(std::move(limit)), needed_(needed) {}

std::string howToRaise(const std::string& limit) {
  if (gLimitAdvice == LimitAdvice::None) return std::string();
  std::string variable = "CLUMPLAB_MAX_" + limit;
  for (char& c : variable)
    c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "raise it with --max-" + limit + " N or " + variable + "=N";
}

std::size_t estimatedWorldBytes(std::size_t pebbles, std::size_t bodies) {
  return pebbles * 400 + bodies * 300 + (std::size_t(16) << 20);
}

}  // namespace clumplab
