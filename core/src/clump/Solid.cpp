#include "core/clump/Solid.hpp"

#include "core/clump/MassProperties.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace clumplab {

void mergeSpans(std::vector<Span>& spans) {
  if (spans.size() < 2) return;
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  std::size_t last = 0;
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].begin <= spans[last].end) {
      spans[last].end = std::max(spans[last].end, spans[i].end);
    } else {
      spans[++last] = spans[i];
    }
  }
  spans.resize(last + 1);
}

PebbleUnion::PebbleUnion(std::span<const Pebble> pebbles) : pebbles_(pebbles.begin(), pebbles.end()) {
  if (pebbles_.empty()) throw std::invalid_argument("a union of pebbles needs at least one pebble");
  requireSpherePebbles(pebbles_);
  pebbleBounds(pebbles_, lower_, upper_);
  double meanRadius = 0.0;
  for (const Pebble& p : pebbles_) meanRadius += p.radius;
  meanRadius /= static_cast<double>(pebbles_.size());
  // Cells about one mean pebble diameter wide, at most 1024 per side.
  const double extent = std::max(upper_.y() - lower_.y(), upper_.z() - lower_.z());
  cell_ = std::max(2.0 * meanRadius, extent / 1024.0);
  cellsY_ = std::max(1, static_cast<int>(std::ceil((upper_.y() - lower_.y()) / cell_)));
  cellsZ_ = std::max(1, static_cast<int>(std::ceil((upper_.z() - lower_.z()) / cell_)));
  // Counting sort of the pebbles into every cell their (y, z) square touches.
  const auto cellRange = [&](const Pebble& p, int& y0, int& y1, int& z0, int& z1) {
    y0 = std::clamp(static_cast<int>((p.center.y() - p.radius - lower_.y()) / cell_), 0, cellsY_ - 1);
    y1 = std::clamp(static_cast<int>((p.center.y() + p.radius - lower_.y()) / cell_), 0, cellsY_ - 1);
    z0 = std::clamp(static_cast<int>((p.center.z() - p.radius - lower_.z()) / cell_), 0, cellsZ_ - 1);
    z1 = std::clamp(static_cast<int>((p.center.z() + p.radius - lower_.z()) / cell_), 0, cellsZ_ - 1);
  };
  const std::size_t cells = static_cast<std::size_t>(cellsY_) * static_cast<std::size_t>(cellsZ_);
  cellStart_.assign(cells + 1, 0);
  int y0 = 0, y1 = 0, z0 = 0, z1 = 0;
  for (const Pebble& p : pebbles_) {
    cellRange(p, y0, y1, z0, z1);
    for (int k = z0; k <= z1; ++k)
      for (int j = y0; j <= y1; ++j) ++cellStart_[static_cast<std::size_t>(k) * cellsY_ + j + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) cellStart_[c + 1] += cellStart_[c];
  cellPebbles_.resize(cellStart_[cells]);
  std::vector<std::uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
  for (std::uint32_t i = 0; i < pebbles_.size(); ++i) {
    cellRange(pebbles_[i], y0, y1, z0, z1);
    for (int k = z0; k <= z1; ++k)
      for (int j = y0; j <= y1; ++j) cellPebbles_[fill[static_cast<std::size_t>(k) * cellsY_ + j]++] = i;
  }
}

void PebbleUnion::bounds(Vec3& lower, Vec3& upper) const {
  lower = lower_;
  upper = upper_;
}

std::size_t PebbleUnion::cellOf(double y, double z) const {
  const int j = std::clamp(static_cast<int>((y - lower_.y()) / cell_), 0, cellsY_ - 1);
  const int k = std::clamp(static_cast<int>((z - lower_.z()) / cell_), 0, cellsZ_ - 1);
  return static_cast<std::size_t>(k) * cellsY_ + j;
}

bool PebbleUnion::contains(const Vec3& point) const {
  if ((point.array() < lower_.array()).any() || (point.array() > upper_.array()).any()) return false;
  const std::size_t c = cellOf(point.y(), point.z());
  for (std::uint32_t k = cellStart_[c]; k < cellStart_[c + 1]; ++k) {
    const Pebble& p = pebbles_[cellPebbles_[k]];
    // Mutze, Polyspherical grains, eq. 28: inside when |p - c_i| <= r_i for some i.
    if ((point - p.center).squaredNorm() <= p.radius * p.radius) return true;
  }
  return false;
}

void PebbleUnion::spansAlongX(double y, double z, std::vector<Span>& out) const {
  out.clear();
  if (y < lower_.y() || y > upper_.y() || z < lower_.z() || z > upper_.z()) return;
  const std::size_t c = cellOf(y, z);
  for (std::uint32_t k = cellStart_[c]; k < cellStart_[c + 1]; ++k) {
    const Pebble& p = pebbles_[cellPebbles_[k]];
    const double dy = y - p.center.y(), dz = z - p.center.z();
    const double h2 = p.radius * p.radius - dy * dy - dz * dz;
    if (h2 < 0.0) continue;
    const double half = std::sqrt(h2);  // half the chord of the sphere along x
    out.push_back({p.center.x() - half, p.center.x() + half});
  }
  mergeSpans(out);
}

}  // namespace clumplab
