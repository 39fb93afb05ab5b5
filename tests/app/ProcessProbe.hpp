#pragma once
// What the soak test watches in its own process, from Linux's /proc and glibc: resident memory,
// heap in use, and the threads by name (the simulation thread names itself "simulation").
#include <malloc.h>

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
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

// Least-squares line y = a + b x through the points; b (the slope), 0 with fewer than two.
inline double leastSquaresSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n < 2) return 0.0;
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0.0 ? sxy / sxx : 0.0;
}

}  // namespace clumplab::test
