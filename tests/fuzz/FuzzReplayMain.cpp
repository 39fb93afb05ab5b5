// Replays files through a fuzz target without libFuzzer, so the seed corpus and every crash found
// once stay regression tests of the ordinary (gcc, release) suite:
//   fuzz_replay_X FILE_OR_FOLDER...
// Each file is fed once to LLVMFuzzerTestOneInput; a finding aborts, as under the fuzzer.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {
std::size_t replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::size_t files = 0;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path p(argv[a]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(p)) {
        if (entry.is_regular_file()) files += replay(entry.path());
      }
    } else {
      files += replay(p);
    }
  }
  std::printf("replayed %zu files\n", files);
  return files > 0 ? 0 : 1;  // an empty corpus is a mistake, not a pass
}
