#pragma once
// What the soak test watches in its own process, from Linux's /proc and glibc: resident memory,
// heap in use, and the threads by name (the simulation thread names itself "simulation").
#include <malloc.h>

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace clumplab::test {

// A field of /proc/self/status in kB ("VmRSS", "VmHWM"); -1 if absent.
inline long long procStatusKiB(const char* field) {
  QFile f(QStringLiteral("/proc/self/status"));
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return -1;
  const QByteArray key = QByteArray(field) + ':';
  for (const QByteArray& line : f.readAll().split('\n')) {
    if (!line.startsWith(key)) continue;
    return line.mid(key.size()).trimmed().split(' ').front().toLongLong();
  }
  return -1;
}

inline double residentMiB() {
  return static_cast<double>(procStatusKiB("VmRSS")) / 1024.0;
}
inline double peakResidentMiB() {
  return static_cast<double>(procStatusKiB("VmHWM")) / 1024.0;
}

// Bytes the program holds from malloc (small blocks in use + mmapped blocks), as glibc counts them:
// unlike the RSS it does not include freed memory the allocator keeps, so a leak shows in it directly.
inline double heapInUseMiB() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
}

// Thread ids of this process whose name (/proc/self/task/ID/comm) is `name`.
inline std::vector<long> threadsNamed(const QString& name) {
  std::vector<long> ids;
  const QDir tasks(QStringLiteral("/proc/self/task"));
  for (const QString& id : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    QFile comm(tasks.filePath(id + QStringLiteral("/comm")));
    if (comm.open(QIODevice::ReadOnly) && QString::fromLatin1(comm.readAll()).trimmed() == name)
      ids.push_back(id.toLong());
  }
  return ids;
}

// Threads of this process.
inline int threadCount() {
  return static_cast<int>(
      QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

// The Theil-Sen slope of the points: the median of the slopes between every pair (Sen, JASA 1968).
// A leak raises every later sample; one sample taken while something large was briefly alive (a
// movie's frame, a background run) moves a least-squares slope by its whole height over the span,
// and this one hardly at all. 0 with fewer than two points.
inline double robustSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  std::vector<double> slopes;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
  if (slopes.empty()) return 0.0;
  const auto middle = slopes.begin() + static_cast<std::ptrdiff_t>(slopes.size() / 2);
  std::nth_element(slopes.begin(), middle, slopes.end());
  if (slopes.size() % 2 == 1) return *middle;
  return 0.5 * (*middle + *std::max_element(slopes.begin(), middle));
}

}  // namespace clumplab::test
