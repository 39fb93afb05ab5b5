// Neighbour lists and clusters of the cluster integration method (core/cim/ParticleNeighbors.hpp,
// Clusters.hpp), checked against brute force on a dense random mixture of spheres and dimers in a
// box periodic in x and z with walls at y = 0 and y = L.
#include <QtTest>
#include <array>
#include <set>

#include "CimModels.hpp"
#include "TestSupport.hpp"
#include "core/cim/Clusters.hpp"

using namespace clumplab;
using namespace clumplab::cim;
using namespace clumplab::test;

namespace {

constexpr double kLength = 0.016;   // [m]
constexpr double kBuffer = 0.4e-3;  // [m]

// Walls at y = 0 and y = L unless y is periodic.
SpringSystem denseMixture(std::size_t n, std::array<bool, 3> periodic = {true, false, true}) {
  SpringSystem sys;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> radius(0.4e-3, 0.8e-3);
  for (std::size_t i = 0; i < n; ++i) {
    const double r = radius(rng);
    sys.shapes.push_back({r, i % 3 == 0 ? 0.8 * r : 0.0});  // every third particle a dimer
  }
  if (!periodic[1]) sys.walls = {{0.0, 1.0}, {kLength, -1.0}};
  sys.box.length = Vec3::Constant(kLength);
  sys.box.periodic = periodic;
  return sys;
}

}  // namespace

class CimClustersTest : public QObject {
  Q_OBJECT
 private slots:
  void neighborListAndClustersAgainstBruteForce_data() {
    QTest::addColumn<bool>("x");
    QTest::addColumn<bool>("y");
    QTest::addColumn<bool>("z");
    QTest::newRow("periodic x, z; walls in y") << true << false << true;
    QTest::newRow("periodic x, y, z") << true << true << true;
    QTest::newRow("periodic y only") << false << true << false;
    QTest::newRow("no periodic axis; walls in y") << false << false << false;
  }
  void neighborListAndClustersAgainstBruteForce() {
    QFETCH(bool, x);
    QFETCH(bool, y);
    QFETCH(bool, z);
    const SpringSystem sys = denseMixture(400, {x, y, z});
    const RigidBodySet s = randomPlacement(sys, kLength, 0.0, 0.0, 11);
    QCOMPARE(s.size(), sys.shapes.size());
    const ParticleModel model = sys.model();
    const NeighborCsr nl = neighborsOf(model, s, kBuffer);
    const Clusters clusters = findClusters(nl);
    const std::size_t n = s.size();

    // The list holds exactly the pairs closer than the buffer, each in both rows, rows ascending.
    std::size_t close = 0, acrossBoundary = 0, wallsListed = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto row = nl.of(i);
      QVERIFY(std::is_sorted(row.begin(), row.end(), [](std::int32_t a, std::int32_t b) {
        return NeighborCsr::isWall(a) == NeighborCsr::isWall(b) ? (a >= 0 ? a < b : a > b) : a >= 0;
      }));
      const std::set<std::int32_t> listed(row.begin(), row.end());
      QCOMPARE(listed.size(), row.size());
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        const Vec3 raw = s.position[j] - s.position[i];
        const Vec3 separation = sys.box.minimumImage(raw);
        const double d = sys.distance(i, j, separation, s.orientation[i], s.orientation[j]);
        const bool inList = listed.count(static_cast<std::int32_t>(j)) == 1;
        QVERIFY2(inList == (d < kBuffer),
                 qPrintable(QString("pair %1-%2 at %3 m: listed %4").arg(i).arg(j).arg(d).arg(inList)));
        if (inList && i < j) {
          ++close;
          if ((raw - separation).norm() > 0.0) ++acrossBoundary;
        }
        // Particles of different clusters are at least the buffer apart.
        if (clusters.clusterOf[i] != clusters.clusterOf[j]) QVERIFY(d >= kBuffer);
      }
      for (std::uint32_t w = 0; w < sys.walls.size(); ++w) {
        const bool inList = listed.count(NeighborCsr::wallEntry(w)) == 1;
        QCOMPARE(inList, sys.wallDistance(i, w, s.particle(i)) < kBuffer);
        wallsListed += inList ? 1 : 0;
      }
    }
    QCOMPARE(nl.pairCount(), close);

    // Every particle in exactly one cluster, members ascending, and each cluster connected.
    std::vector<int> seen(n, 0);
    std::size_t nonTrivial = 0;
    for (std::size_t c = 0; c < clusters.count(); ++c) {
      const auto members = clusters.membersOf(c);
      QVERIFY(!members.empty());
      QVERIFY(std::is_sorted(members.begin(), members.end()));
      for (const std::uint32_t i : members) {
        ++seen[i];
        QCOMPARE(clusters.clusterOf[i], static_cast<std::uint32_t>(c));
      }
      std::set<std::uint32_t> reached = {members.front()};
      std::vector<std::uint32_t> frontier = {members.front()};
      while (!frontier.empty()) {
        const std::uint32_t i = frontier.back();
        frontier.pop_back();
        for (const std::int32_t e : nl.of(i)) {
          if (e >= 0 && reached.insert(static_cast<std::uint32_t>(e)).second) frontier.push_back(e);
        }
      }
      QCOMPARE(reached.size(), members.size());
      nonTrivial += members.size() > 1 ? 1 : 0;
      const bool expectFree = members.size() == 1 && nl.of(members.front()).empty();
      QCOMPARE(clusters.isFree[c] != 0, expectFree);
    }
    for (std::size_t i = 0; i < n; ++i) QCOMPARE(seen[i], 1);
    qInfo(
        "%zu particles: %zu close pairs (%zu across a periodic face), %zu wall entries, %zu clusters "
        "(%zu with several particles, largest %zu, %zu free)",
        n, close, acrossBoundary, wallsListed, clusters.count(), nonTrivial, clusters.largestSize(),
        clusters.freeCount());
    // The configuration exercises what it should.
    QCOMPARE(acrossBoundary > 0, x || y || z);
    QCOMPARE(wallsListed > 0, !y);
    QVERIFY(nonTrivial > 10);
    QVERIFY(clusters.freeCount() > 10);
  }

  // Moving every particle by whole box lengths along the periodic axes changes nothing.
  void periodicImagesGiveTheSameList() {
    const SpringSystem sys = denseMixture(200);
    RigidBodySet s = randomPlacement(sys, kLength, 0.0, 0.0, 3);
    const ParticleModel model = sys.model();
    const NeighborCsr a = neighborsOf(model, s, kBuffer);
    for (std::size_t i = 0; i < s.size(); ++i) {
      s.position[i] +=
          kLength * Vec3(static_cast<double>(i % 3) - 1.0, 0.0, -2.0 * static_cast<double>(i % 2));
    }
    const NeighborCsr b = neighborsOf(model, s, kBuffer);
    QVERIFY(a.offsets == b.offsets);
    QVERIFY(a.entries == b.entries);
  }

  void periodicBoxTooSmallThrows() {
    SpringSystem sys = denseMixture(10);
    sys.box.length = Vec3::Constant(3e-3);  // below 2 (2 x 1.44 mm + buffer)
    const RigidBodySet s = randomPlacement(sys, 3e-3, 0.0, 0.0, 5);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, neighborsOf(sys.model(), s, kBuffer));
  }

  // A chain of 300 000 touching particles is one cluster: the search uses an explicit stack.
  void longChainIsOneCluster() {
    const std::uint32_t n = 300000;
    NeighborCsr chain;
    chain.offsets.assign(1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (i > 0) chain.entries.push_back(static_cast<std::int32_t>(i - 1));
      if (i + 1 < n) chain.entries.push_back(static_cast<std::int32_t>(i + 1));
      if (i == n / 2) chain.entries.push_back(NeighborCsr::wallEntry(0));
      chain.offsets.push_back(static_cast<std::uint32_t>(chain.entries.size()));
    }
    const Clusters c = findClusters(chain);
    QCOMPARE(c.count(), std::size_t{1});
    QCOMPARE(c.membersOf(0).size(), std::size_t{n});
    QCOMPARE(c.isFree[0], std::uint8_t{0});
  }

  // A lone particle near a wall is a singleton that is not free; a lone one far from all is free.
  void singletonsNearWallsAreNotFree() {
    NeighborCsr nl;
    nl.offsets = {0, 1, 1, 2, 3};
    nl.entries = {NeighborCsr::wallEntry(2), 3, 2};
    const Clusters c = findClusters(nl);
    QCOMPARE(c.count(), std::size_t{3});
    QCOMPARE(c.isFree[0], std::uint8_t{0});  // particle 0: wall 2
    QCOMPARE(c.isFree[1], std::uint8_t{1});  // particle 1: nothing
    QCOMPARE(c.isFree[2], std::uint8_t{0});  // particles 2 and 3
    QCOMPARE(c.membersOf(2).size(), std::size_t{2});
  }
};

QTEST_GUILESS_MAIN(CimClustersTest)
#include "tst_cim_clusters.moc"
