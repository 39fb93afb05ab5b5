// WorldCheckpoint::memoryBytes against what a checkpoint really allocates (issue 37, item 5): the
// app's step-back history is bounded by these estimates, so an estimate below the allocation lets
// the history hold more than its cap. This executable counts the bytes operator new hands out.
#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <new>

#include "MeshWallSupport.hpp"
#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"

namespace {
std::atomic<std::size_t> allocatedBytes{0};

void* counted(std::size_t size, std::size_t alignment) {
  allocatedBytes.fetch_add(size, std::memory_order_relaxed);
  const std::size_t rounded = (std::max<std::size_t>(size, 1) + alignment - 1) / alignment * alignment;
  void* p =
      alignment > alignof(std::max_align_t) ? std::aligned_alloc(alignment, rounded) : std::malloc(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t size) {
  return counted(size, alignof(std::max_align_t));
}
void* operator new[](std::size_t size) {
  return counted(size, alignof(std::max_align_t));
}
void* operator new(std::size_t size, std::align_val_t a) {
  return counted(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return counted(size, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

using namespace clumplab;
using namespace clumplab::test;

namespace {

// The bytes allocated while taking a checkpoint of `world` (the checkpoint's own arrays).
std::size_t allocatedByCheckpoint(const World& world, WorldCheckpoint& into) {
  const std::size_t before = allocatedBytes.load();
  into = world.checkpoint();
  return allocatedBytes.load() - before;
}

void compare(const World& world) {
  WorldCheckpoint checkpoint;
  const std::size_t allocated = allocatedByCheckpoint(world, checkpoint);
  const std::size_t estimate = checkpoint.memoryBytes();
  qInfo("allocated %zu bytes, estimated %zu", allocated, estimate);
  // Never below what is held (the history's cap is a bound), and not far above it either (the
  // objects' own sizes are counted with their members).
  QVERIFY2(estimate >= allocated,
           qPrintable(QString("estimated %1 < allocated %2").arg(estimate).arg(allocated)));
  QVERIFY2(estimate <= allocated + allocated / 10 + 4096,
           qPrintable(QString("estimated %1, allocated only %2").arg(estimate).arg(allocated)));
}

// Sixty T-bars dropped into a box, integrated by `kind`.
Scene pileScene(IntegratorKind kind) {
  TbarPile pile;
  pile.count = 60;
  pile.top = 0.03;
  Scene scene = parseScene(tbarPileJson(pile), "pile.json");
  scene.model.settings.integrator = kind;
  return scene;
}

}  // namespace

class CheckpointMemoryTest : public QObject {
  Q_OBJECT
 private slots:
  void pileInContact_data() { addIntegratorRows(); }
  void pileInContact() {
    QFETCH(IntegratorKind, kind);
    auto world = buildWorld(pileScene(kind));
    for (int n = 0; n < 3000; ++n) mustStep(*world);
    QVERIFY(world->contactCount() > 0);
    compare(*world);
  }

  // cim and rk4 keep their bodies, particle model, contacts' memory and lists in the state
  // (OwnForcesHistory): counted, not estimated, and their working memory not copied.
  void ownForcesIntegratorsInContact_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("cim") << IntegratorKind::Cim;
    QTest::newRow("rk4") << IntegratorKind::Rk4;
  }
  void ownForcesIntegratorsInContact() {
    QFETCH(IntegratorKind, kind);
    Scene scene = pileScene(kind);
    scene.model.contact.linear.tangentialStiffnessRatio = 0.0;  // no springs: a law cim and rk4 take
    auto world = buildWorld(scene);
    for (int n = 0; n < 3000 || world->contactCount() == 0; ++n) {
      mustStep(*world);
      QVERIFY(n < 20000);
    }
    compare(*world);
  }

  void pebblesOnAMeshFloor() {
    WorldSettings settings = freeSpace(IntegratorKind::Leapfrog, 1e-5);
    settings.gravity = Vec3(0.0, 0.0, -9.81);
    World world(settings, linearContact(1e3, 0.5, 0.5), {meshWall(gridFloor(4, 0.05))},
                {templateFromPebbles(tbarPebbles(), 1000.0)});
    for (int b = 0; b < 10; ++b) {
      world.addBody({0, Vec3(-0.036 + 0.008 * b, 0.0, 0.004), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
    }
    for (int n = 0; n < 3000; ++n) mustStep(world);
    QVERIFY(world.contactCount() > 0);
    compare(world);
  }
};

QTEST_GUILESS_MAIN(CheckpointMemoryTest)
#include "tst_checkpoint_memory.moc"
