#include "core/io/Trajectory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "TextFile.hpp"
#include "core/base/Errors.hpp"

namespace clumplab {

namespace {
constexpr std::array<char, 8> kMagic = {'C', 'L', 'T', 'R', 'A', 'J', '1', '\n'};
constexpr std::uint32_t kFrameMagic = 0x314D5246;  // "FRM1" little-endian
constexpr std::uint64_t kMaxSceneBytes = 1ull << 30;
constexpr std::uint32_t kMaxBodies = 100'000'000;
}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::string& path, const std::string& sceneJson,
                                   const std::vector<std::string>& templateKeys)
    : path_(path), partial_(path + ".partial") {
  file_ = std::fopen(partial_.c_str(), "wb");
  if (!file_) throw InputError(path, "", "cannot create the trajectory file (is the folder writable?)");
  write(kMagic.data(), kMagic.size());
  const std::uint64_t n = sceneJson.size();
  write(&n, sizeof n);
  write(sceneJson.data(), sceneJson.size());
  const auto keys = static_cast<std::uint32_t>(templateKeys.size());
  write(&keys, sizeof keys);
  for (const std::string& key : templateKeys) {
    const auto length = static_cast<std::uint32_t>(key.size());
    write(&length, sizeof length);
    write(key.data(), key.size());
  }
}

TrajectoryWriter::~TrajectoryWriter() {
  try {
    close();
  } catch (...) {  // a destructor must not throw; close() explicitly to hear of failures
  }
}

void TrajectoryWriter::write(const void* data, std::size_t size) {
  if (std::fwrite(data, 1, size, file_) != size) {
    std::fclose(file_);
    file_ = nullptr;
    throw InputError(path_, "", "cannot write the trajectory (is the disk full?)");
  }
  bytes_ += size;
}

void TrajectoryWriter::append(double time, std::uint64_t step, const BodyState& bodies) {
  appendFrame(time, step, bodies);
}

void TrajectoryWriter::append(const TrajectoryFrame& frame) {
  appendFrame(frame.time, frame.step, frame.bodies);
}

// BodyState and SnapshotBodies hold the same per-body arrays; either is written without a copy.
template <class Bodies>
void TrajectoryWriter::appendFrame(double time, std::uint64_t step, const Bodies& bodies) {
  if (!file_) throw InputError(path_, "", "the trajectory is closed");
  const auto count = static_cast<std::uint32_t>(bodies.size());
  write(&kFrameMagic, sizeof kFrameMagic);
  write(&time, sizeof time);
  write(&step, sizeof step);
  write(&count, sizeof count);
  for (std::uint32_t b = 0; b < count; ++b) {
    const Vec3& x = bodies.position[b];
    const Quat& q = bodies.orientation[b];
    const Vec3& v = bodies.velocity[b];
    const Vec3& w = bodies.angularVelocity[b];
    const std::array<double, 13> values = {x.x(), x.y(), x.z(), q.w(), q.x(), q.y(), q.z(),
                                           v.x(), v.y(), v.z(), w.x(), w.y(), w.z()};
    write(&bodies.templateIndex[b], sizeof(std::uint32_t));
    write(values.data(), sizeof values);
  }
  ++frames_;
}

void TrajectoryWriter::close() {
  if (!file_) return;
  const bool flushed = std::fflush(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  std::error_code ec;
  if (flushed && closed) std::filesystem::rename(partial_, path_, ec);
  if (!flushed || !closed || ec) throw InputError(path_, "", "cannot finish the trajectory file");
}

void TrajectoryWriter::abandon() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  std::filesystem::remove(partial_, ec);
}

namespace {
class Cursor {
 public:
  Cursor(const std::string& path, std::string data) : path_(path), data_(std::move(data)) {}
  template <class T>
  T read(const char* what) {
    T value{};
    need(sizeof value, what);
    std::memcpy(&value, data_.data() + offset_, sizeof value);
    offset_ += sizeof value;
    return value;
  }
  std::string bytes(std::uint64_t n, const char* what) {
    need(n, what);
    std::string s = data_.substr(offset_, n);
    offset_ += n;
    return s;
  }
  bool atEnd() const { return offset_ == data_.size(); }
  std::size_t remaining() const { return data_.size() - offset_; }
  std::size_t offset() const { return offset_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(path_, "byte " + std::to_string(offset_), problem);
  }

 private:
  void need(std::uint64_t n, const char* what) const {
    if (n > data_.size() - offset_) {
      fail(std::string("the file ends inside ") + what + " (truncated: was the recording interrupted?)");
    }
  }
  std::string path_;
  std::string data_;
  std::size_t offset_ = 0;
};

}  // namespace

Trajectory readTrajectory(const std::string& path) {
  return parseTrajectory(readTextFile(path), path);  // whole file, bytes as they are
}

Trajectory parseTrajectory(std::string bytes, const std::string& path) {
  if (bytes.empty()) throw InputError(path, "", "the file is empty");
  // Another kind of file, whatever its length, is named as such before any truncation is.
  if (std::memcmp(bytes.data(), kMagic.data(), std::min(bytes.size(), kMagic.size())) != 0) {
    throw InputError(path, "", "not a ClumpLab trajectory (clumplab-trajectory/1)");
  }
  Cursor in(path, std::move(bytes));
  (void)in.bytes(kMagic.size(), "the header");
  Trajectory t;
  const auto sceneBytes = in.read<std::uint64_t>("the scene's length");
  if (sceneBytes > kMaxSceneBytes)
    in.fail("the embedded scene claims " + std::to_string(sceneBytes) + " bytes");
  t.sceneJson = in.bytes(sceneBytes, "the embedded scene");
  const auto keys = in.read<std::uint32_t>("the template count");
  if (keys > kMaxBodies) in.fail("the file claims " + std::to_string(keys) + " templates");
  for (std::uint32_t k = 0; k < keys; ++k) {
    const auto length = in.read<std::uint32_t>("a template key's length");
    t.templateKeys.push_back(in.bytes(length, "a template key"));
  }
  while (!in.atEnd()) {
    if (in.read<std::uint32_t>("a frame marker") != kFrameMagic) in.fail("expected a frame marker (FRM1)");
    TrajectoryFrame frame;
    frame.time = in.read<double>("a frame's time");
    frame.step = in.read<std::uint64_t>("a frame's step");
    const auto count = in.read<std::uint32_t>("a frame's body count");
    // Checked against the bytes left before anything is reserved: a corrupt count must not allocate.
    constexpr std::size_t kBytesPerBody = sizeof(std::uint32_t) + 13 * sizeof(double);
    if (count > kMaxBodies || count > in.remaining() / kBytesPerBody) {
      in.fail("a frame claims " + std::to_string(count) +
              " bodies, more than the rest of the file holds (truncated: was the recording interrupted?)");
    }
    SnapshotBodies& b = frame.bodies;
    b.templateIndex.reserve(count);
    b.position.reserve(count);
    b.orientation.reserve(count);
    b.velocity.reserve(count);
    b.angularVelocity.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      b.templateIndex.push_back(in.read<std::uint32_t>("a body's template"));
      if (b.templateIndex.back() >= t.templateKeys.size())
        in.fail("a body names a template the file does not list");
      const auto v = in.read<std::array<double, 13>>("a body's state");
      for (const double x : v) {
        if (!std::isfinite(x)) in.fail("body " + std::to_string(i) + "'s state holds a NaN or an infinity");
      }
      const double norm2 = v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6];
      if (std::abs(norm2 - 1.0) > 1e-6)
        in.fail("body " + std::to_string(i) + "'s orientation is not a unit quaternion");
      b.position.emplace_back(v[0], v[1], v[2]);
      b.orientation.emplace_back(v[3], v[4], v[5], v[6]);
      b.velocity.emplace_back(v[7], v[8], v[9]);
      b.angularVelocity.emplace_back(v[10], v[11], v[12]);
    }
    t.frames.push_back(std::move(frame));
  }
  return t;
}

}  // namespace clumplab
