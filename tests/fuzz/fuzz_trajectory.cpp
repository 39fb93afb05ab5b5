// Fuzz target: the trajectory (state and replay) file reader, clumplab-trajectory/1.
#include "FuzzTarget.hpp"
#include "core/io/Trajectory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clumplab;
  fuzz::expectOnlyInputErrors([&] { (void)parseTrajectory(fuzz::asText(data, size), fuzz::kInputName); });
  return 0;
}
