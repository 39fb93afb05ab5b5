// Fuzz target: the clump template file loader (clumplab-template/1).
#include "FuzzTarget.hpp"
#include "core/io/TemplateFile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clumplab;
  fuzz::expectOnlyInputErrors([&] { (void)parseTemplateFile(fuzz::asText(data, size), fuzz::kInputName); });
  return 0;
}
