// A clump's predicted cost in a pile (core/world/PileCost.hpp): the step it predicts is the one a world
// of such clumps between walls chooses, under each contact law; the wall time per step follows the
// benchmark's costs per body and per pebble; a template file keeps the prediction.
#include <QtTest>

#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/PileCost.hpp"
#include "core/world/World.hpp"

using namespace clumplab;

namespace {

// An L of three overlapping pebbles of two sizes, in a box, under `contact` (a scene's "contact" JSON).
std::string sceneWith(const std::string& contact) {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-6, "contact": )" + contact + R"(,
    "walls": [{"type": "box", "min": [-0.05, -0.05, 0], "max": [0.05, 0.05, 0.1]}],
    "templates": {"ell": {"density": 2500, "pebbles": [[0, 0, 0, 0.004], [0.005, 0, 0, 0.004],
                                                      [0, 0.004, 0, 0.002]]}},
    "bodies": [{"template": "ell", "position": [0, 0, 0.02]}]})";
}

}  // namespace

class PileCostTest : public QObject {
  Q_OBJECT
 private slots:
  void stepIsTheWorldsStep_data() {
    QTest::addColumn<QString>("contact");
    QTest::newRow("linear")
        << R"({"model": "linear", "stiffness": 1e5, "restitution": 0.4, "friction": 0.5})";
    QTest::newRow("hertz") << R"({"model": "hertz", "young": 1e8, "restitution_squared": 0.5})";
    QTest::newRow("hertz-mindlin")
        << R"({"model": "hertz-mindlin", "youngs_modulus": 7e9, "poisson": 0.25, "restitution": 0.6, "friction": 0.3})";
  }
  void stepIsTheWorldsStep() {
    QFETCH(QString, contact);
    const Scene scene = parseScene(sceneWith(contact.toStdString()), "pile.json");
    const std::unique_ptr<World> world = buildWorld(scene);
    const PileCost cost = estimatePileCost(*scene.model.templates.at(0), scene.model.contact, 250);
    QCOMPARE(cost.timeStep, world->timeSteps().recommended);
    QCOMPARE(cost.criticalStep, world->timeSteps().critical);
    QVERIFY(cost.timeStep > 0.0 && cost.timeStep <= cost.criticalStep);
    QCOMPARE(cost.bodies, 250);
    QCOMPARE(cost.exposedPebbles, 3);  // the small pebble sticks out of the two large ones
    QCOMPARE(cost.secondsPerStep, 250 * (kBodyStepSeconds + 3 * kPebbleStepSeconds));
    QCOMPARE(cost.simulatedSecondsPerWallSecond, cost.timeStep / cost.secondsPerStep);
    QVERIFY(!cost.law.empty());
  }

  void aTemplateFileKeepsIt() {
    const Scene scene =
        parseScene(sceneWith(R"({"model": "linear", "stiffness": 1e6, "restitution": 0.5})"), "pile.json");
    ClumpTemplate t = *scene.model.templates.at(0);
    t.metrics = ClumpMetrics{};
    t.metrics->pileCost = estimatePileCost(t, scene.model.contact);
    const ClumpTemplate back = parseTemplateFile(templateToJson(t), "t.json");
    QVERIFY(back.metrics && back.metrics->pileCost);
    const PileCost& a = *t.metrics->pileCost;
    const PileCost& b = *back.metrics->pileCost;
    QCOMPARE(b.law, a.law);
    QCOMPARE(b.timeStep, a.timeStep);
    QCOMPARE(b.criticalStep, a.criticalStep);
    QCOMPARE(b.bodies, 100);
    QCOMPARE(b.exposedPebbles, a.exposedPebbles);
    QCOMPARE(b.secondsPerStep, a.secondsPerStep);
    QCOMPARE(b.simulatedSecondsPerWallSecond, a.simulatedSecondsPerWallSecond);
    QCOMPARE(QString::fromStdString(a.law), QStringLiteral("linear, kn 1e+06 N/m, e 0.5"));
  }

  // A pebble wholly inside the others is buried (it costs its placement only): a ball of radius 2
  // with a ball of radius 1 at its centre and one of radius 0.5 half way out, and a third of radius 1
  // reaching out of it.
  void buriedPebblesAreCountedApart() {
    ClumpTemplate t;
    t.pebbles = {
        {Vec3::Zero(), 2.0}, {Vec3::Zero(), 1.0}, {Vec3(1.0, 0.0, 0.0), 0.5}, {Vec3(0.0, 1.8, 0.0), 1.0}};
    QCOMPARE(exposedPebbleCount(t), 2);
    t.pebbles.resize(1);
    QCOMPARE(exposedPebbleCount(t), 1);
  }

  void noPileOfNothing() {
    const Scene scene =
        parseScene(sceneWith(R"({"model": "linear", "stiffness": 1e4, "restitution": 0.5})"), "pile.json");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             estimatePileCost(*scene.model.templates.at(0), scene.model.contact, 0));
    ClumpTemplate empty;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimatePileCost(empty, scene.model.contact));
  }
};

QTEST_APPLESS_MAIN(PileCostTest)
#include "tst_pile_cost.moc"
