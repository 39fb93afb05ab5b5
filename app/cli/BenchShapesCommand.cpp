// clumplab-cli bench-shapes --case mass|inside|fill: the geometry library's speed and memory on
// generated meshes (targets: mass properties of 1M triangles < 0.2 s; 1e6 inside queries
// against 100k triangles < 2 s; a fill of 1e6 candidates < 2 s). One case per process, so the peak
// resident memory reported is that case's.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "Commands.hpp"
#include "core/base/ThreadPool.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshSolid.hpp"
#include "shapes/PebbleFill.hpp"
#include "shapes/Primitives.hpp"

namespace clumplab::cli {

namespace {

double peakResidentMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A torus with about `triangles` triangles (ring segments twice the tube segments), 8 cm across.
std::shared_ptr<const TriangleMesh> torus(long long triangles) {
  const int tube = std::max(3, static_cast<int>(std::sqrt(static_cast<double>(triangles) / 4.0)));
  return std::make_shared<const TriangleMesh>(shapes::torusMesh(Vec3::Zero(), 0.03, 0.01, 2 * tube, tube));
}

}  // namespace

int benchShapesCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--case", "--triangles", "--queries", "--candidates", "--threads"},
                       {"--fitted"});
  const std::string which = args.text("--case").value_or("");
  const int threads = static_cast<int>(args.integer("--threads").value_or(ThreadPool::machineThreads()));
  if (threads < 1) throw UsageError("--threads must be at least 1");
  nlohmann::json out = {{"case", which}, {"threads", threads}};
  if (which == "mass") {
    const auto mesh = torus(args.integer("--triangles").value_or(1000000));
    MassProperties m;
    out["seconds"] = seconds([&] { m = shapes::meshMassProperties(*mesh, 1000.0); });
    out["triangles"] = mesh->size();
    out["volume"] = m.volume;
    out["target_seconds"] = 0.2;
  } else if (which == "inside") {
    const auto mesh = torus(args.integer("--triangles").value_or(100000));
    const long long queries = args.integer("--queries").value_or(1000000);
    double build = 0.0;
    std::unique_ptr<shapes::MeshSolid> solid;
    build = seconds([&] { solid = std::make_unique<shapes::MeshSolid>(mesh); });
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-0.04, 0.04);
    std::vector<Vec3> points(static_cast<std::size_t>(queries));
    for (Vec3& p : points) p = Vec3(u(rng), u(rng), 0.25 * u(rng));
    constexpr std::size_t kChunk = 4096;
    std::vector<long long> inside((points.size() + kChunk - 1) / kChunk, 0);
    ThreadPool pool(threads);
    out["seconds"] = seconds([&] {
      pool.run(inside.size(), [&](std::size_t c) {
        for (std::size_t i = c * kChunk; i < std::min(points.size(), (c + 1) * kChunk); ++i)
          inside[c] += solid->contains(points[i]);
      });
    });
    long long total = 0;
    for (const long long n : inside) total += n;
    out["triangles"] = mesh->size();
    out["queries"] = queries;
    out["inside"] = total;
    out["bvh_build_seconds"] = build;
    out["target_seconds"] = 2.0;
  } else if (which == "fill") {
    const auto mesh = torus(args.integer("--triangles").value_or(100000));
    const shapes::MeshSolid solid(mesh);
    const long long candidates = args.integer("--candidates").value_or(1000000);
    // The torus's box is 8 x 8 x 2 cm: n^3 candidates over it need h = (volume / n)^(1/3).
    FillSettings f;
    f.spacing = std::cbrt(0.08 * 0.08 * 0.02 / static_cast<double>(candidates));
    f.fitted = args.has("--fitted");  // a distance query per candidate inside
    shapes::FillResult r;
    out["seconds"] = seconds([&] { r = shapes::fillMesh(solid, f, 2'000'000'000, threads); });
    out["triangles"] = mesh->size();
    out["candidates"] = r.candidates;
    out["pebbles"] = r.pebbles.size();
    out["fitted"] = f.fitted;
    out["target_seconds"] = 2.0;
  } else {
    throw UsageError("--case must be mass, inside or fill");
  }
  out["peak_resident_mb"] = peakResidentMegabytes();
  std::cout << out.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
