// The model's bounded parameters (core/model/ModelParameters.hpp), each at the edges of its declared
// range: the engine and the scene loader accept the edges and refuse the numbers just beyond them,
// and a world at an edge is saved and loads back with the same value. The Parameters panel's limits
// are checked against the same table in tst_gui_parameters, Python's in test_world.py.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cmath>

#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/World.hpp"

using namespace clumplab;

namespace {

// A scene of one sphere under the parameter's contact law (linear with a fixed dashpot for the
// dashpot's own parameter).
std::string sceneFor(const ModelParameter& p) {
  const char* contact = R"({"model": "linear", "stiffness": 1e4, "restitution": 0.5})";
  if (p.key == "linear.damping") {
    contact = R"({"model": "linear", "stiffness": 1e4, "damping": 0.1})";
  } else if (p.law == ContactModel::Kind::Hertz) {
    contact = R"({"model": "hertz", "young": 5e8})";
  } else if (p.law == ContactModel::Kind::HertzMindlin) {
    contact = R"({"model": "hertz-mindlin", "youngs_modulus": 7e9, "poisson": 0.25, "restitution": 0.5})";
  }
  return std::string(R"({"format": "clumplab-scene/1", "time_step": 1e-5, "contact": )") + contact + R"(,
    "templates": {"ball": {"density": 2500, "pebbles": [[0, 0, 0, 0.01]]}},
    "bodies": [{"template": "ball", "position": [0, 0, 0.1]}]})";
}

// The parameter's path in a scene file: a contact law's keys sit in "contact".
QStringList jsonPath(const ModelParameter& p) {
  const QString key = QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size()));
  if (p.law) {
    const std::string_view leaf = p.leafKey();
    return {QStringLiteral("contact"), QString::fromUtf8(leaf.data(), static_cast<qsizetype>(leaf.size()))};
  }
  return key.split(QLatin1Char('.'));
}

// `text` with the parameter's key set to `value`.
std::string withValue(const std::string& text, const ModelParameter& p, double value) {
  QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
  const QStringList path = jsonPath(p);
  const QJsonValue v = p.integer() ? QJsonValue(static_cast<qint64>(value)) : QJsonValue(value);
  if (path.size() == 1) {
    root[path[0]] = v;
  } else {
    QJsonObject inner = root[path[0]].toObject();
    inner[path[1]] = v;
    root[path[0]] = inner;
  }
  return QJsonDocument(root).toJson().toStdString();
}

double below(const ModelParameter& p) {
  return p.integer() ? p.range.lowest - 1.0 : std::nextafter(p.range.smallestAccepted(), -HUGE_VAL);
}
double above(const ModelParameter& p) {
  return p.integer() ? p.range.highest + 1.0 : std::nextafter(p.range.largestAccepted(), HUGE_VAL);
}

}  // namespace

class ModelParametersTest : public QObject {
  Q_OBJECT
 private slots:
  void rangesRead() {
    const ParameterRange step = modelParameter("time_step").range;
    QCOMPARE(step.smallestAccepted(), 1e-15);
    QCOMPARE(step.largestAccepted(), 100.0);
    QCOMPARE(step.requirement("s"), std::string("must lie in [1e-15, 100] s"));
    const ParameterRange poisson = modelParameter("hertz-mindlin.poisson").range;
    QVERIFY(poisson.contains(std::nextafter(0.5, 0.0)));
    QVERIFY(!poisson.contains(0.5));
    QCOMPARE(poisson.requirement(), std::string("must lie in [0, 0.5)"));
    const ParameterRange stiffness = modelParameter("linear.stiffness").range;
    QVERIFY(!stiffness.contains(0.0));
    QVERIFY(stiffness.contains(std::numeric_limits<double>::denorm_min()));
    QVERIFY(!stiffness.contains(HUGE_VAL));
    QVERIFY(!stiffness.contains(std::nan("")));
    QCOMPARE(stiffness.complaint(-1.0), std::string("must be positive (got -1)"));
    QCOMPARE(modelParameter("damping.linear").complaint(-2.0),
             std::string("linear damping must not be negative (got -2)"));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, modelParameter("time_stp"));
  }

  void edgesAcceptedAndSavedBeyondRefused_data() {
    QTest::addColumn<QString>("key");
    for (const ModelParameter& p : modelParameters())
      QTest::newRow(std::string(p.key).c_str())
          << QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size()));
  }

  void edgesAcceptedAndSavedBeyondRefused() {
    QFETCH(QString, key);
    const ModelParameter& p = modelParameter(key.toStdString());
    const std::string text = sceneFor(p);
    for (const double edge : {p.range.smallestAccepted(), p.range.largestAccepted()}) {
      // The loader and the engine take the edge; the world saved loads back with it, to the bit.
      Scene scene;
      try {
        scene = parseScene(withValue(text, p, edge), "edge.json");
      } catch (const InputError& e) {
        QFAIL(e.what());
      }
      QCOMPARE(p.value(scene.model.settings, scene.model.contact), edge);
      const std::unique_ptr<World> world = buildWorld(scene);
      QCOMPARE(p.value(world->model().settings, world->model().contact), edge);
      const Scene back = parseScene(sceneToJson(sceneFromWorld(*world, scene), "."), "saved.json");
      QCOMPARE(p.value(back.model.settings, back.model.contact), edge);
    }
    const Scene good = parseScene(text, "good.json");
    std::vector<double> beyond{below(p)};
    if (std::isfinite(p.range.highest)) beyond.push_back(above(p));
    for (const double bad : beyond) {
      // The loader names the key and the value ...
      try {
        parseScene(withValue(text, p, bad), "bad.json");
        QFAIL(qPrintable(QStringLiteral("the loader took %1 = %2").arg(key).arg(bad, 0, 'g', 17)));
      } catch (const InputError& e) {
        const std::string message = e.what();
        const std::string where = "bad.json: " + jsonPath(p).join(QLatin1Char('.')).toStdString() + ": ";
        QVERIFY2(message.find(where + p.range.requirement(std::string(p.unit))) != std::string::npos,
                 message.c_str());
      }
      // ... and the engine refuses it with the parameter's name.
      WorldSettings settings = good.model.settings;
      ContactModel contact = good.model.contact;
      p.assign(settings, contact, bad);
      try {
        validateModelParameters(settings, contact);
        QFAIL("the engine took it");
      } catch (const std::invalid_argument& e) {
        QCOMPARE(std::string(e.what()), p.complaint(p.value(settings, contact)));
      }
    }
  }

  // The same edges through World::setModel, the one way a run's model changes (the Parameters
  // panel's fields assign through the table too): taken at each edge, refused beyond it with the
  // parameter's complaint, and a refused model leaves the world's as it was.
  void editsBetweenStepsTakeTheSameRange_data() {
    QTest::addColumn<QString>("key");
    for (const ModelParameter& p : modelParameters()) {
      if (p.key == "skin") continue;  // fixed when the world is made (see skinIsNotEditable)
      QTest::newRow(std::string(p.key).c_str())
          << QString::fromUtf8(p.key.data(), static_cast<qsizetype>(p.key.size()));
    }
  }

  void editsBetweenStepsTakeTheSameRange() {
    QFETCH(QString, key);
    const ModelParameter& p = modelParameter(key.toStdString());
    const std::unique_ptr<World> world = buildWorld(parseScene(sceneFor(p), "s.json"));
    for (const double edge : {p.range.smallestAccepted(), p.range.largestAccepted()}) {
      world->editModel([&](EditableModel& m) { p.assign(m, edge); });
      QCOMPARE(p.value(world->model().settings, world->model().contact), edge);
    }
    QVERIFY(world->step());
    std::vector<double> beyond{below(p)};
    if (std::isfinite(p.range.highest)) beyond.push_back(above(p));
    for (const double bad : beyond) {
      const EditableModel before = world->editableModel();
      try {
        world->editModel([&](EditableModel& m) { p.assign(m, bad); });
        QFAIL(qPrintable(QStringLiteral("setModel took %1 = %2").arg(key).arg(bad, 0, 'g', 17)));
      } catch (const std::invalid_argument& e) {
        EditableModel assigned = before;
        p.assign(assigned, bad);
        WorldSettings settings = world->model().settings;
        ContactModel contact = world->model().contact;
        assigned.writeTo(settings, contact);
        QCOMPARE(std::string(e.what()), p.complaint(p.value(settings, contact)));
      }
      QVERIFY(world->editableModel() == before);
    }
  }

  void skinIsNotEditable() {
    EditableModel m;
    const EditableModel before = m;
    modelParameter("skin").assign(m, 0.5);
    QVERIFY(m == before);
  }

  // What a user sets between steps goes through the same check.
  void settersRefuseWhatTheLoaderRefuses() {
    const Scene scene = parseScene(sceneFor(modelParameter("time_step")), "s.json");
    const std::unique_ptr<World> world = buildWorld(scene);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world->editModel([&](EditableModel& m) { m.timeStep = 1e-16; }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world->editModel([&](EditableModel& m) { m.timeStep = 101.0; }));
    world->editModel([&](EditableModel& m) { m.timeStep = 1e-15; });
    QCOMPARE(world->model().settings.timeStep, 1e-15);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, world->editModel([&](EditableModel& m) {
      m.integrator = IntegratorKind::Leapfrog;
      m.eulerIterations = 101;
    }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, world->editModel([&](EditableModel& m) {
      m.linearDamping = -1.0;
      m.angularDamping = 0.0;
    }));
    ContactModel contact = world->model().contact;
    contact.linear.restitution = 1.0 + 1e-15;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world->editModel([&](EditableModel& m) { m.contact = contact; }));
    // A model is taken whole or not at all: a good step beside a bad damping changes nothing.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, world->editModel([&](EditableModel& m) {
      m.timeStep = 2e-5;
      m.linearDamping = -1.0;
    }));
    QCOMPARE(world->model().settings.timeStep, 1e-15);
  }
};

QTEST_APPLESS_MAIN(ModelParametersTest)
#include "tst_model_parameters.moc"
