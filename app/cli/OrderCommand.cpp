// clumplab-cli order: the integrator order analysis of Mutze, Polyspherical grains, §1 (viii), (ix)
// (core/studies/OrderAnalysis.hpp).
#include <cmath>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "Commands.hpp"
#include "core/base/Errors.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/studies/OrderAnalysis.hpp"

namespace clumplab::cli {

namespace {
nlohmann::json finiteOrNull(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json finiteArray(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(finiteOrNull(x));
  return a;
}

void writeSeries(const OrderAnalysis& a, const std::string& path) {
  AtomicOutputFile file(path);  // readers see the old series or the whole new one
  std::ofstream& out = file.stream();
  out.precision(17);
  out << "time";
  for (std::size_t k = 0; k < a.distance.size(); ++k) out << ",distance_" << k << '_' << k + 1;
  for (std::size_t k = 0; k < a.energyDeviation.size(); ++k) out << ",energy_deviation_" << k;
  out << '\n';
  for (std::size_t j = 0; j < a.times.size(); ++j) {
    out << a.times[j];
    for (const auto& d : a.distance) out << ',' << d[j];
    for (const auto& e : a.energyDeviation) out << ',' << e[j];
    out << '\n';
  }
  if (!out) throw InputError(path, "", "cannot be written");
  file.commit();
}
}  // namespace

int orderCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--runs", "--factor", "--time", "--from", "--to", "--samples", "--series",
                              "--integrator", "--dt", "--threads", "--spheres", "--plane"});
  const Scene scene = loadSceneWithOverrides(args, "order");
  OrderSettings s;
  if (const auto v = args.integer("--runs")) s.runs = static_cast<int>(*v);
  if (const auto v = args.integer("--factor")) s.factor = static_cast<int>(*v);
  if (const auto v = args.integer("--samples")) s.samples = static_cast<int>(*v);
  if (const auto v = args.number("--time")) s.duration = *v;
  if (const auto v = args.number("--from")) s.windowBegin = *v;
  if (const auto v = args.number("--to")) s.windowEnd = *v;
  OrderAnalysis a;
  try {
    a = analyzeOrder(scene, s);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (const auto path = args.text("--series")) writeSeries(a, *path);
  const nlohmann::json result = {{"integrator", integratorName(scene.model.settings.integrator)},
                                 {"factor", s.factor},
                                 {"time_steps", a.timeSteps},
                                 {"span", a.times.back()},
                                 {"window", {a.windowBegin, a.windowEnd}},
                                 {"trajectory_order", finiteOrNull(a.trajectoryOrder)},
                                 {"energy_order", finiteOrNull(a.energyOrder)},
                                 {"trajectory_orders", finiteArray(a.trajectoryOrders)},
                                 {"energy_orders", finiteArray(a.energyOrders)},
                                 {"rms_distance", a.rmsDistance},
                                 {"rms_energy_deviation", a.rmsEnergyDeviation}};
  std::cout << result.dump() << '\n';
  return 0;
}

}  // namespace clumplab::cli
