#include "core/studies/OrderAnalysis.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/world/World.hpp"

namespace clumplab {

namespace {
struct Configuration {
  std::vector<Vec3> positions;
  std::vector<Quat> orientations;
};

double rmsOverWindow(const std::vector<double>& series, const std::vector<double>& times, double begin,
                     double end) {
  double sum = 0.0;
  int n = 0;
  for (std::size_t j = 0; j < series.size(); ++j) {
    if (times[j] < begin || times[j] > end) continue;
    sum += series[j] * series[j];
    ++n;
  }
  return n > 0 ? std::sqrt(sum / n) : 0.0;
}

std::vector<double> rmsOverWindow(const std::vector<std::vector<double>>& series,
                                  const std::vector<double>& times, double begin, double end) {
  std::vector<double> rms;
  rms.reserve(series.size());
  for (const auto& s : series) rms.push_back(rmsOverWindow(s, times, begin, end));
  return rms;
}

// log(a / b) / log f for successive root mean squares; NaN where one is zero.
std::vector<double> fittedOrders(const std::vector<double>& rms, int factor) {
  std::vector<double> orders;
  if (rms.size() > 1) orders.reserve(rms.size() - 1);
  for (std::size_t k = 0; k + 1 < rms.size(); ++k) {
    orders.push_back(rms[k] > 0.0 && rms[k + 1] > 0.0
                         ? std::log(rms[k] / rms[k + 1]) / std::log(static_cast<double>(factor))
                         : NAN);
  }
  return orders;
}

double mean(const std::vector<double>& v) {
  double sum = 0.0;
  int n = 0;
  for (double x : v) {
    if (std::isfinite(x)) {
      sum += x;
      ++n;
    }
  }
  return n > 0 ? sum / n : NAN;
}
}  // namespace

OrderAnalysis analyzeOrder(const Scene& scene, const OrderSettings& s, const WorkProgress& progress) {
  if (s.runs < 3 || s.runs > 8)
    throw std::invalid_argument("runs: expected 3 to 8 (two distances are compared)");
  if (s.factor < 2 || s.factor > 10) throw std::invalid_argument("factor: expected 2 to 10");
  if (s.samples < 2 || s.samples > 100000) throw std::invalid_argument("samples: expected 2 to 100000");
  const double dt0 = s.timeStep > 0.0 ? s.timeStep : scene.model.settings.timeStep;
  const double span = s.duration > 0.0 ? s.duration : scene.duration;
  if (!(dt0 > 0.0) || !std::isfinite(dt0)) throw std::invalid_argument("time step: must be positive");
  if (!(span > 0.0) || !std::isfinite(span))
    throw std::invalid_argument("duration: give a positive time span (the scene has no duration)");
  const double finest = dt0 / std::pow(static_cast<double>(s.factor), s.runs - 1);
  if (span / finest > 2e8)
    throw std::invalid_argument("duration: the finest run would take more than 2e8 steps");

  OrderAnalysis a;
  a.factor = s.factor;
  const auto coarseSteps = static_cast<long>(std::llround(span / dt0));
  const long perSample = std::max<long>(1, coarseSteps / s.samples);
  for (long k = 0; k * perSample <= coarseSteps; ++k)
    a.times.push_back(static_cast<double>(k * perSample) * dt0);
  a.windowBegin = s.windowBegin;
  a.windowEnd = s.windowEnd > s.windowBegin ? s.windowEnd : a.times.back();

  std::vector<std::vector<Configuration>> configurations(static_cast<std::size_t>(s.runs));
  a.energyDeviation.assign(static_cast<std::size_t>(s.runs), {});
  std::vector<double> reach;  // bounding radius of each body [m]
  const double totalSteps =
      static_cast<double>(coarseSteps) * (std::pow(s.factor, s.runs) - 1.0) / (s.factor - 1.0);
  double stepsDone = 0.0;
  for (int run = 0; run < s.runs; ++run) {
    Scene variant = scene;
    variant.model.settings.timeStep = dt0 / std::pow(static_cast<double>(s.factor), run);
    a.timeSteps.push_back(variant.model.settings.timeStep);
    auto world = buildWorld(variant);
    if (reach.empty()) {
      for (std::size_t i = 0; i < world->bodies().size(); ++i)
        reach.push_back(world->model().templates[world->bodies().templateIndex[i]]->boundingRadius);
    }
    const auto conserved = [&] {
      const EnergyReport e = world->energy();
      return e.balance();  // less the work of drags and moving walls and what inlets brought in
    };
    const double c0 = conserved();
    const long stepsPerSample = perSample * static_cast<long>(std::llround(std::pow(s.factor, run)));
    for (std::size_t j = 0; j < a.times.size(); ++j) {
      if (j > 0) {
        for (long n = 0; n < stepsPerSample; ++n) {
          if (!world->step()) {
            std::ostringstream why;
            why << "the run at dt = " << variant.model.settings.timeStep
                << " s diverged: " << world->state().divergence.message;
            throw std::runtime_error(why.str());
          }
          if ((n & 1023) == 1023) progress.throwIfCancelled();
        }
        stepsDone += static_cast<double>(stepsPerSample);
        progress.report(std::min(1.0, stepsDone / totalSteps), "runs");
      }
      configurations[static_cast<std::size_t>(run)].push_back(
          {world->bodies().position, world->bodies().orientation});
      a.energyDeviation[static_cast<std::size_t>(run)].push_back(std::abs(conserved() - c0));
    }
  }
  for (int k = 0; k + 1 < s.runs; ++k) {
    std::vector<double> d;
    for (std::size_t j = 0; j < a.times.size(); ++j) {
      const Configuration& p = configurations[static_cast<std::size_t>(k)][j];
      const Configuration& q = configurations[static_cast<std::size_t>(k) + 1][j];
      double sum = 0.0;
      for (std::size_t i = 0; i < p.positions.size(); ++i) {
        const double arc = reach[i] * p.orientations[i].angularDistance(q.orientations[i]);
        sum += (p.positions[i] - q.positions[i]).squaredNorm() + arc * arc;
      }
      d.push_back(p.positions.empty() ? 0.0 : std::sqrt(sum / static_cast<double>(p.positions.size())));
    }
    a.distance.push_back(std::move(d));
  }
  refitOrders(a);
  return a;
}

void refitOrders(OrderAnalysis& a) {
  a.rmsDistance = rmsOverWindow(a.distance, a.times, a.windowBegin, a.windowEnd);
  a.rmsEnergyDeviation = rmsOverWindow(a.energyDeviation, a.times, a.windowBegin, a.windowEnd);
  a.trajectoryOrders = fittedOrders(a.rmsDistance, a.factor);
  a.energyOrders = fittedOrders(a.rmsEnergyDeviation, a.factor);
  a.trajectoryOrder = mean(a.trajectoryOrders);
  a.energyOrder = mean(a.energyOrders);
}

}  // namespace clumplab
