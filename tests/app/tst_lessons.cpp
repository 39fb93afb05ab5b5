// The lessons shipped with the app: every one parses, names a scene the app carries (with its
// meshes), and that scene loads and runs; broken lesson files are refused naming file and field.
#include <QTemporaryDir>
#include <QtTest>

#include "DocumentLoader.hpp"
#include "LessonCatalog.hpp"
#include "core/World.hpp"
#include "resources/Resources.hpp"

using namespace clumplab;
using namespace clumplab::gui;

class LessonsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { initResources(); }

  void everyShippedLessonLoadsAndRuns() {
    QStringList errors;
    const std::vector<Lesson> lessons = builtinLessons(&errors);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    QVERIFY(lessons.size() >= 8);
    QTemporaryDir cache;
    for (const Lesson& l : lessons) {
      QString error;
      const QString path = extractLessonScene(l, cache.path(), &error);
      QVERIFY2(!path.isEmpty(), qPrintable(error));
      const std::shared_ptr<const Scene> scene = loadDocument(path.toStdString());
      auto world = buildWorld(*scene);
      for (int n = 0; n < 10; ++n) QVERIFY2(world->step(), qPrintable(l.file));
      if (l.dzhanibekovBody >= 0)
        QVERIFY(static_cast<std::size_t>(l.dzhanibekovBody) < world->bodies().size());
    }
  }

  void lessonsNeedingAMissingFeatureAreHidden() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("90-later.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "clumplab-lesson/1", "title": "t", "summary": "s", "scene": "x.json",
               "text": ["p"], "requires": ["mesh-walls"]})");
    f.close();
    QStringList errors;
    QCOMPARE(loadLessons(dir.path(), {}, &errors).size(), std::size_t(0));
    QCOMPARE(loadLessons(dir.path(), {QStringLiteral("mesh-walls")}, &errors).size(), std::size_t(1));
    QVERIFY(errors.isEmpty());
  }

  void badLessonsNameFileAndField_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    const QByteArray good =
        R"({"format": "clumplab-lesson/1", "title": "t", "summary": "s", "scene": "x.json", "text": ["p"])";
    QTest::newRow("syntax") << QByteArray("{\n\"format\": }") << "l.json: line 2: ";
    QTest::newRow("format") << QByteArray(R"({"format": "other"})") << "l.json: format: expected";
    QTest::newRow("missing title") << QByteArray(good).replace(R"("title": "t", )", "")
                                   << "l.json: title: missing required field";
    QTest::newRow("unknown key") << QByteArray(good + R"(, "plots": "energy"})")
                                 << "l.json: plots: unknown key";
    QTest::newRow("bad view item") << QByteArray(good + R"(, "view": {"show": ["pebles"]}})")
                                   << "l.json: view.show[0]: expected one of";
    QTest::newRow("bad plot") << QByteArray(good + R"(, "plot": "nrg"})") << "l.json: plot: expected one of";
    QTest::newRow("comparison without steps") << QByteArray(good + R"(, "plot": "time-step-comparison"})")
                                              << "l.json: time_steps: a time-step comparison needs";
    QTest::newRow("negative step") << QByteArray(good + R"(, "time_steps": [1e-6, -1]})")
                                   << "l.json: time_steps: every time step must be a positive number";
    QTest::newRow("speed") << QByteArray(good + R"(, "speed": 5})") << "l.json: speed: expected 0.001 to 1";
    QTest::newRow("body") << QByteArray(good + R"(, "dzhanibekov": {"body": 1.5}})")
                          << "l.json: dzhanibekov.body: expected a body index";
    QTest::newRow("scene path") << QByteArray(good).replace("x.json", "../x.json")
                                << "l.json: scene: expected the file name";
    QTest::newRow("no text") << QByteArray(good).replace(R"(["p"])", "[]") << "l.json: text: a lesson needs";
  }
  void badLessonsNameFileAndField() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QByteArray text = json;
    if (!text.endsWith('}')) text += '}';
    try {
      parseLesson(text, QStringLiteral("l.json"));
      QFAIL("accepted");
    } catch (const LessonError& e) {
      QVERIFY2(QString(e.what()).startsWith(expected), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(LessonsTest)
#include "tst_lessons.moc"
