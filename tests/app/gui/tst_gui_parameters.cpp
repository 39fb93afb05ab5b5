// The scene's parameters in the real main window (under Xvfb in CI): edits in the Parameters panel
// reach the simulation thread and undo takes them back, the contact law chosen there, and the
// Simulation menu's integrator order analysis, clumps-as-spheres and 2D / 3D switches.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "CutOffText.hpp"
#include "GuiScenes.hpp"
#include "GuiTestSupport.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "gui/analysis/OrderAnalysisDialog.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

class TestGuiParameters : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() { useTestSettings(QStringLiteral("tst_gui_parameters")); }

  void gravityEditReachesTheSimulationAndUndoRestoresIt() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    QCOMPARE(openScene(w, dir, QStringLiteral("fall.json"), kFallingSphere, 1), QString());
    const double g0 = measuredAcceleration(w, 50);
    CLUMPLAB_COMPARE_REL(g0, -9.81, 1e-9);

    EditableModel edited = w.parameters();
    edited.gravity = Vec3(0.0, 0.0, -20.0);
    emit w.parametersDock()->edited(edited, QStringLiteral("gravity z"));
    QCOMPARE(w.undoStack()->count(), 1);
    QCOMPARE(w.parametersDock()->parameters().gravity.z(), -20.0);
    const double g1 = measuredAcceleration(w, 50);
    CLUMPLAB_COMPARE_REL(g1, -20.0, 1e-9);

    w.undoStack()->undo();
    QCOMPARE(w.parameters().gravity.z(), -9.81);
    QCOMPARE(w.parametersDock()->parameters().gravity.z(), -9.81);
    const double g2 = measuredAcceleration(w, 50);
    CLUMPLAB_COMPARE_REL(g2, -9.81, 1e-9);
  }

  void parameterFieldsEditOnlyWhatTheUserTouches() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showActiveScene(w, dir, QStringLiteral("fall.json"), kFallingSphere, 1), QString());
    // Values beyond the old panel's ranges and with many digits, as a scene may hold them.
    EditableModel start = w.parameters();
    start.eulerIterations = 80;
    start.contact.linear.stiffness = 5e12;
    start.timeStep = 1.234567891234e-7;
    w.applyParameters(start);
    w.undoStack()->clear();

    auto* gx = w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("gravity x"));
    auto* dt = w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("time step"));
    QVERIFY(gx != nullptr && dt != nullptr);
    // Confirming a field without typing changes nothing.
    dt->setFocus();
    QTest::keyClick(dt, Qt::Key_Enter);
    QCOMPARE(w.undoStack()->count(), 0);
    QCOMPARE(w.parameters().timeStep, 1.234567891234e-7);
    // The wheel over a field without focus does not edit it.
    gx->clearFocus();
    QWheelEvent wheel(QPointF(5, 5), gx->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(gx, &wheel);
    QCOMPARE(w.undoStack()->count(), 0);
    // Typing a value edits that field alone.
    gx->setFocus();
    gx->selectAll();
    QTest::keyClicks(gx, QStringLiteral("2.5"));
    QTest::keyClick(gx, Qt::Key_Enter);
    QCOMPARE(w.undoStack()->count(), 1);
    QCOMPARE(w.parameters().gravity.x(), 2.5);
    QCOMPARE(w.parameters().eulerIterations, 80);
    QCOMPARE(w.parameters().contact.linear.stiffness, 5e12);
    QCOMPARE(w.parameters().timeStep, 1.234567891234e-7);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.parameters.gravity.x() == 2.5; }));
    QCOMPARE(w.currentFrame()->parameters.contact.linear.stiffness, 5e12);

    // The run speed chosen in the panel reaches the thread, and is not an undoable scene edit.
    auto* speed = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("run speed"));
    QVERIFY(speed != nullptr);
    const int quarter = speed->findData(0.25);
    QVERIFY(quarter >= 0);
    speed->setCurrentIndex(quarter);
    emit speed->activated(quarter);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.stats.targetSpeed == 0.25; }));
    QCOMPARE(w.undoStack()->count(), 1);
  }

  // The panel's fields take the model parameters' declared ranges (core/model/ModelParameters.hpp),
  // the loader's and the engine's: its smallest and largest values are accepted there, and nothing
  // either of them accepts is beyond the field (a field holds multiples of 1e-323).
  void panelLimitsAreTheDeclaredRanges() {
    ParametersDock dock;
    QStringList shown;
    for (ScientificSpinBox* box : dock.findChildren<ScientificSpinBox*>()) {
      const QString key = box->property("modelParameter").toString();
      if (key.isEmpty()) continue;
      shown << key;
      const ModelParameter& p = modelParameter(key.toStdString());
      QVERIFY2(p.range.contains(box->minimum()) && p.range.contains(box->maximum()), qPrintable(key));
      QCOMPARE(box->maximum(), p.range.largestAccepted());
      if (p.range.lowestIncluded)
        QCOMPARE(box->minimum(), p.range.lowest);
      else
        QVERIFY2(box->minimum() <= 1e-323 && p.range.lowest == 0.0, qPrintable(key));
    }
    auto* euler = dock.findChild<QSpinBox*>();
    QVERIFY(euler != nullptr);
    QCOMPARE(euler->minimum(), 1);
    QCOMPARE(euler->maximum(), static_cast<int>(modelParameter("euler_iterations").range.highest));
    // Every parameter of the table but the ones a scene file alone sets (the skin, the splitting's
    // and the leapfrog's iteration counts, cim's settings) has its field.
    QStringList expected;
    for (const ModelParameter& p : modelParameters())
      if (p.key != "skin" && p.key != "rotor_substeps" && p.key != "euler_iterations" &&
          !p.key.starts_with("cim."))
        expected << QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size()));
    shown.sort();
    expected.sort();
    QCOMPARE(shown, expected);
  }

  // A time step typed at the panel's smallest value runs, is saved, and the saved scene loads back
  // with it (the panel once took 1e-300 s, which the loader then refused).
  void smallestTimeStepFromThePanelIsSavedAndLoadsBack() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showActiveScene(w, dir, QStringLiteral("fall.json"), kFallingSphere, 1), QString());
    auto* dt = w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("time step"));
    QVERIFY(dt != nullptr);
    dt->setFocus();
    dt->selectAll();
    QTest::keyClicks(dt, QStringLiteral("1e-16"));  // below the range: the field does not take it
    QTest::keyClick(dt, Qt::Key_Enter);
    QVERIFY(w.parameters().timeStep >= 1e-15);
    dt->selectAll();
    QTest::keyClicks(dt, QStringLiteral("1e-15"));
    QTest::keyClick(dt, Qt::Key_Enter);
    QCOMPARE(w.parameters().timeStep, 1e-15);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.parameters.timeStep == 1e-15; }));
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(w.saveSceneTo(saved), QString());
    QCOMPARE(loadScene(saved.toStdString()).model.settings.timeStep, 1e-15);
  }

  // Nothing in the Parameters panel is cut off, on any contact model's page, at the window's size
  // on a 1600 x 1000 screen: every field shows its value and unit whole (a time step of
  // 0.00016177613 s, kt/kn = 2/7, G = 6.674e-11 m³/(kg·s²) were cut), every label and check box its
  // text (a label may wrap).
  void nothingInTheParametersPanelIsCutOff() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1400, 900);
    QCOMPARE(showActiveScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    EditableModel p = w.parameters();
    p.timeStep = 0.00016177613;
    p.contact.linear.tangentialStiffnessRatio = 2.0 / 7.0;
    w.applyParameters(p);
    auto* model = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("contact model"));
    QVERIFY(model != nullptr);
    for (int page = 0; page < model->count(); ++page) {
      model->setCurrentIndex(page);
      QApplication::processEvents();
      const QStringList cut = cutOffText(*w.parametersDock());
      QVERIFY2(cut.isEmpty(),
               qPrintable(model->itemText(page) + QStringLiteral(": ") + cut.join(QStringLiteral("; "))));
    }
  }

  void hertzMindlinFromTheParametersPanel() {
    // A user picks Hertz–Mindlin and types a material card's modulus: the running world takes the
    // law and the value, the two balls settle on the floor under it, and undo brings the linear law back.
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showActiveScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    w.undoStack()->clear();
    auto* model = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("contact model"));
    QVERIFY(model != nullptr);
    const int mindlin = model->findData(static_cast<int>(ContactModel::Kind::HertzMindlin));
    QVERIFY(mindlin >= 0);
    model->setCurrentIndex(mindlin);
    QCOMPARE(w.parameters().contact.kind, ContactModel::Kind::HertzMindlin);
    auto* young =
        w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("hertz-mindlin Young's modulus"));
    auto* friction = w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("hertz-mindlin friction"));
    QVERIFY(young != nullptr && friction != nullptr);
    QVERIFY(young->isVisible());
    young->setFocus();
    young->selectAll();
    QTest::keyClicks(young, QStringLiteral("1e7"));
    QTest::keyClick(young, Qt::Key_Enter);
    friction->setFocus();
    friction->selectAll();
    QTest::keyClicks(friction, QStringLiteral("0.4"));
    QTest::keyClick(friction, Qt::Key_Enter);
    QCOMPARE(w.parameters().contact.hertzMindlin.youngsModulus, 1e7);
    QCOMPARE(w.parameters().contact.hertzMindlin.friction, 0.4);
    QCOMPARE(w.undoStack()->count(), 3);
    w.setRunning(true);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) {
      return f.parameters.contact.kind == ContactModel::Kind::HertzMindlin &&
             f.parameters.contact.hertzMindlin.youngsModulus == 1e7 && f.snapshot.time > 0.3;
    }));
    const SimulationFrame frame = *w.currentFrame();
    QVERIFY(!frame.diverged);
    // At rest on the floor, pressed in by Hertz's d = (3 m g / (4 E* sqrt(r)))^(2/3) (~0.2 mm).
    const double radius = 0.05, mass = 1000.0 * 4.0 / 3.0 * M_PI * radius * radius * radius;
    const double youngEff = 1e7 / (2.0 * (1.0 - 0.3 * 0.3));
    const double press = std::pow(3.0 * mass * 9.81 / (4.0 * youngEff * std::sqrt(radius)), 2.0 / 3.0);
    for (const Vec3& x : frame.snapshot.bodies.position) {
      QVERIFY2(std::abs(x.z() - (radius - press)) < 0.2 * press,
               qPrintable(QString("z = %1, expected %2").arg(x.z()).arg(radius - press)));
    }
    if (const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR"); !shots.isEmpty()) {
      for (QWidget* p = friction->parentWidget(); p != nullptr; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(p)) area->ensureWidgetVisible(friction);
      }
      QTest::qWait(50);
      QVERIFY(w.parametersDock()->grab().save(
          QDir(shots).filePath(QStringLiteral("parameters-hertz-mindlin.png"))));
    }
    w.undoStack()->undo();
    w.undoStack()->undo();
    w.undoStack()->undo();
    QCOMPARE(w.parameters().contact.kind, ContactModel::Kind::Linear);
    QCOMPARE(model->currentIndex(), model->findData(static_cast<int>(ContactModel::Kind::Linear)));
  }

  // Simulation -> Integrator order analysis: the series runs off the GUI thread, plots the distances
  // and energy deviations, fits order 2 for midpoint (Mutze, Polyspherical grains, §1 viii, ix), refits when
  // the window moves, and can be cancelled.
  void orderAnalysisDialogFitsSecondOrder() {
    MainWindow w;
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/order-two-tbars.json"), true),
             QString());
    OrderAnalysisDialog* dialog = w.openOrderAnalysis();
    QVERIFY(dialog != nullptr);
    QCOMPARE(dialog->integratorBox()->currentText(), QStringLiteral("midpoint"));
    dialog->spanBox()->setValue(0.012);
    QSignalSpy finished(dialog, &OrderAnalysisDialog::finished);
    dialog->run();
    QVERIFY(dialog->busy());
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.front().front().toBool(), true);
    const OrderAnalysis* a = dialog->result();
    QVERIFY(a != nullptr);
    QVERIFY2(std::abs(a->trajectoryOrder - 2.0) < 0.2 && std::abs(a->energyOrder - 2.0) < 0.2,
             qPrintable(dialog->resultText()));
    QVERIFY(dialog->resultText().contains(QStringLiteral("trajectory order 2.0")));
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    if (!shots.isEmpty()) {
      QTest::qWait(200);
      QVERIFY(dialog->grab().save(QDir(shots).filePath(QStringLiteral("order-analysis.png"))));
    }
    // Cancelling a long series keeps the last result.
    dialog->spanBox()->setValue(10.0);
    finished.clear();
    dialog->run();
    QTest::qWait(100);
    QVERIFY(dialog->busy());
    for (QPushButton* b : dialog->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("Cancel")) b->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, clumplab::test::wallClockMs(10000));
    QVERIFY(!dialog->busy());
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(dialog->result(), a);
  }

  // Simulation -> Clumps as spheres (Mutze, Polyspherical grains, §1 (ii)): the scene reopens with one sphere
  // per clump, and as built again; a switch the scene has no room for is refused, the scene unchanged.
  void clumpsAsSpheres() {
    MainWindow w;
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto pebblesShown = [&] {
      const SimulationFrame* f = w.currentFrame();
      return f ? f->snapshot.pebbles : std::size_t(0);
    };
    QCOMPARE(
        w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/stable-unstable-axes.json"), true),
        QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.pebbles == 30; }));
    QCOMPARE(w.setSphereMode(SphereKind::VolumeEquivalent), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.pebbles == 3; }));
    QCOMPARE(w.currentFrame()->snapshot.bodies.size(), std::size_t(3));
    QCOMPARE(w.setSphereMode(std::nullopt), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.pebbles == 30; }));

    QCOMPARE(w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/bulk-tbars.json"), true),
             QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.pebbles == 1000; }));
    QTimer::singleShot(300, &w, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) box->accept();
    });
    const QString refused = w.setSphereMode(SphereKind::Bounding);
    QVERIFY2(refused.contains(QStringLiteral("placed only")), qPrintable(refused));
    QVERIFY(!w.sphereMode().has_value());
    QTest::qWait(100);
    w.tick();
    QCOMPARE(pebblesShown(), std::size_t(1000));
  }

  // PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)) on a scene written for 3D, from the
  // Parameters panel: the T-bars are generated in the x-z plane through the middle of the pile and stay in
  // it; "as the scene file says" brings 3D back; another file opens as its file says. Fields edited in the
  // panel reach the running world (a save from it writes them).
  void motionSwitchAndFields() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setSpeed(1.0, true);
    QCOMPARE(w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/bulk-tbars.json"), true),
             QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 100; }));
    auto* motion = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("motion"));
    QVERIFY(motion);
    QVERIFY(motion->currentText().contains(QStringLiteral("3D")));
    motion->setCurrentIndex(motion->findData(static_cast<int>(MotionChoice::PlaneXZ)));
    emit motion->activated(motion->currentIndex());  // as a user's choice
    QCOMPARE(w.motion(), MotionChoice::PlaneXZ);
    w.setRunning(true);
    const auto planar = [](const SimulationFrame& f) {
      if (f.snapshot.bodies.size() < 2 || f.snapshot.steps < 200) return false;
      for (const Vec3& x : f.snapshot.bodies.position) {
        if (x.y() != f.snapshot.bodies.position[0].y()) return false;
      }
      for (const Vec3& omega : f.snapshot.bodies.angularVelocity) {
        if (omega.x() != 0.0 || omega.z() != 0.0) return false;
      }
      return true;
    };
    QVERIFY(waitForFrame(w, planar, clumplab::test::wallClockMs(60000)));
    const std::size_t in2D = w.currentFrame()->snapshot.bodies.size();
    qInfo("%zu of 100 T-bars fit in the plane", in2D);
    QVERIFY(in2D > 10 && in2D <= 100);
    QCOMPARE(motion->currentData().toInt(), static_cast<int>(MotionChoice::PlaneXZ));

    // Fields from the panel reach the world.
    auto* ex = w.parametersDock()->findChild<QDoubleSpinBox*>(QStringLiteral("electric field x"));
    QVERIFY(ex);
    ex->setValue(250.0);
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(w.saveSceneTo(saved), QString());
    const Scene back = loadScene(saved.toStdString());
    QCOMPARE(back.model.settings.fields.electric, Vec3(250.0, 0, 0));
    QVERIFY(back.model.settings.plane.enabled);  // a 2D scene saves as one

    QCOMPARE(w.setMotion(MotionChoice::AsSceneFile), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 100; }));
    QVERIFY(motion->currentText().contains(QStringLiteral("3D")));
    QCOMPARE(w.setMotion(MotionChoice::PlaneYZ), QString());
    QCOMPARE(
        w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/stable-unstable-axes.json"), true),
        QString());
    QCOMPARE(w.motion(), MotionChoice::AsSceneFile);
  }
};

QTEST_MAIN(TestGuiParameters)
#include "tst_gui_parameters.moc"
