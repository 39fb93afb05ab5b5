// The soak test: the real main window driven for minutes by random user actions from a
// seeded generator (parameter edits typed into the Parameters panel, integrator and speed choices,
// spawns, mouse drags of bodies in the 3D view, camera moves, run / pause / step / step back /
// reset, undo / redo, the example scenes opened in turn, movies recorded through the Record dialog
// and directly, screenshots), while the process's memory is sampled. It fails on a crash or a hang
// (each action and the simulation thread's answer are time-bounded), on memory that keeps growing
// after a warm-up, on a broken movie, and when closing the window does not join the simulation
// thread. Memory is judged at visits to a reference state (the same scene, freshly opened), where
// only what the run kept can differ. Two more cases run the `clumplab` executable: a scripted run with
// --quit, and SIGTERM / SIGINT to a running app, each ending in bounded time with status 0 and its autosave
// removed.
//
//   CLUMPLAB_SOAK_SECONDS   length of the random run [s] (default 60; the full soak is 600)
//   CLUMPLAB_SOAK_SEED      the generator's seed (default: a random one, printed), to reproduce a run
//   CLUMPLAB_SOAK_CSV       the memory series (default: soak-rss.csv beside this program)
//   CLUMPLAB_SOAK_SAMPLE_SECONDS  between memory samples (default 2)
#include <signal.h>

#include <malloc.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLineEdit>
#include <QMap>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <random>
#include <thread>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "ProcessProbe.hpp"
#include "TestPaths.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/RecordDialog.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/ImageFiles.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;
using namespace clumplab::test;

namespace {

// --- bounds, from measurement (docs/reliability.md, "Soak")
// --------------------------------------------------- Memory is compared at the reference state
// (showReference: the same scene, a fresh world, empty history and undo stack), visited kReferenceVisits
// times evenly over the run: the least-squares slope of those samples after the warm-up (the first third)
// times the run's length. Two 600 s runs (1944 and 2438 actions, all 21 example scenes) measured, at the
// reference state, heap in use +15 MiB (63.7 -> 86.2 MiB, caches filling: Qt's pixmap and glyph caches,
// Mesa's shaders) and RSS +70 MiB; a 30 s run +16 and +22 MiB. RSS is a ratchet: glibc keeps what the
// heaviest scene freed (tbar-bulk's 1000 bodies and history took the heap to 147 MiB), so it may rise by
// about that. A world or step-back history leaked per scene load (1 to 80 MiB, 60 to 90 loads a run) or 25 kB
// leaked per action exceeds the heap bound; the peak bound is the 183 MiB start (Mesa, Qt) + the
// history's 256 MiB cap + the largest scene (~150 MiB), with margin.
#if CLUMPLAB_UNDER_TSAN
// ThreadSanitizer does not support fork in a threaded program (ffmpeg, ffprobe, the executable): the
// soak runs without movies and the executable's cases are skipped.
constexpr bool kCanFork = false;
#else
constexpr bool kCanFork = true;
#endif
#if CLUMPLAB_UNDER_TSAN || CLUMPLAB_UNDER_ASAN
// The sanitizers' own allocator and shadow memory: the memory figures are reported, not checked.
constexpr bool kCheckMemory = false;
#else
constexpr bool kCheckMemory = true;
#endif
constexpr double kMaxHeapGrowthMiB = 60.0;
constexpr double kMaxRssGrowthMiB = 150.0;
constexpr double kMaxPeakRssMiB = 1024.0;
constexpr int kMaxExtraThreads = 8;  // over the warm-up's most: a thread per action would show
// Seconds of random actions under ctest; 30 under the sanitizers, where the memory figures are not
// checked and the soak hunts races and crashes only.
constexpr double kDefaultSeconds = clumplab::test::sizedForBuild(60.0, 30.0);
constexpr int kReferenceVisits = 10;      // visits to the reference state, evenly over the run
constexpr int kActionTimeoutMs = 60'000;  // one action, including a scene load or a dialog
// The simulation thread applies a command within this; closing the window joins it within this
// (measured in the release build, scaled for the sanitizers).
constexpr int kThreadAnswerMs = clumplab::test::wallClockMs(30'000);
constexpr int kJoinMs = clumplab::test::wallClockMs(10'000);
constexpr int kAppExitMs = 30'000;  // the executable exits within this after --quit or SIGTERM

double envNumber(const char* name, double fallback) {
  bool ok = false;
  const double v = qEnvironmentVariable(name).toDouble(&ok);
  return ok ? v : fallback;
}

QString scenesDir() {
  return QString(CLUMPLAB_SCENES_DIR);
}

// Aborts the program with `what` if `fn` does not return within `ms` (a hang would otherwise only
// show as ctest's timeout, without saying where).
template <class Fn>
void withinOrAbort(int ms, const QString& what, Fn fn) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  const QByteArray text = what.toUtf8();
  std::thread watchdog([&] {
    std::unique_lock lock(m);
    if (!cv.wait_for(lock, std::chrono::milliseconds(ms), [&] { return done; })) {
      std::fprintf(stderr, "soak: HANG: %s did not finish within %d ms\n", text.constData(), ms);
      std::fflush(stderr);
      std::abort();
    }
  });
  fn();
  {
    std::lock_guard lock(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
}

// Every thread's stack, from gdb if it is installed (for the report of a hang).
void printStacks() {
  const QString gdb = QStandardPaths::findExecutable(QStringLiteral("gdb"));
  if (gdb.isEmpty()) return;
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(gdb, {QStringLiteral("-batch"), QStringLiteral("-p"),
                QString::number(QCoreApplication::applicationPid()), QStringLiteral("-ex"),
                QStringLiteral("thread apply all bt 30")});
  if (!p.waitForFinished(60'000)) return;
  std::printf("soak: the threads' stacks:\n%s\n", p.readAll().constData());
  std::fflush(stdout);
}

QAction* findAction(QWidget& w, const QString& text) {
  for (QAction* a : w.findChildren<QAction*>()) {
    QString t = a->text();
    t.remove(QLatin1Char('&'));
    if (t == text) return a;
  }
  return nullptr;
}

struct Sample {
  double wallSeconds = 0.0;
  double rssMiB = 0.0;
  double heapMiB = 0.0;
  int threads = 0;
  std::size_t bodies = 0;
  double simTime = 0.0;
  long actions = 0;
  bool reference = false;  // taken on the reference state (Soak::showReference)
};

// One soak run: the window, the generator, what was done and what was measured.
class Soak {
 public:
  Soak(MainWindow& w, std::uint64_t seed, const QString& movieDir) : w_(w), rng_(seed), movieDir_(movieDir) {
    for (const QString& f : QDir(scenesDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
      scenes_ << QDir(scenesDir()).filePath(f);
    scenes_ << QString();  // the built-in default scene
    // Modal dialogs (errors of a recording or a switch, the Record dialog) must not stop the run:
    // the Record dialog is filled in and accepted, message boxes are read and closed.
    dismisser_.setInterval(150);
    QObject::connect(&dismisser_, &QTimer::timeout, [this] { answerModal(); });
    dismisser_.start();
  }

  std::vector<Sample> samples;
  QMap<QString, long> counts;
  QStringList messages;  // texts of the message boxes closed
  // CLUMPLAB_SOAK_VERBOSE=1: every action as done and every reference visit, with the memory.
  const bool verbose = qEnvironmentVariableIntValue("CLUMPLAB_SOAK_VERBOSE") != 0;
  QStringList movies;  // movie files and PNG folders recorded
  long actions = 0;
  int refusedOpens = 0;    // scenes that did not fit the sphere or 2D switch (the error names the file)
  int longRecordings = 0;  // deterministic recordings still going after a minute, stopped by hand

  // The last actions with what they did, for the message of a failure.
  QString recentActions() const { return log_.join(QLatin1Char('\n')); }

  void sample(double wallSeconds, bool reference = false) {
    Sample s;
    s.reference = reference;
    s.wallSeconds = wallSeconds;
    // Free pages the allocator keeps are handed back first: a burst of short-lived allocations (a
    // big scene opened and closed) raised the RSS by 67 MiB for good with the heap in use flat, and
    // that is no growth of what the app holds.
    if (kCheckMemory) malloc_trim(0);
    s.rssMiB = residentMiB();
    s.heapMiB = heapInUseMiB();
    s.threads = threadCount();
    if (const SimulationFrame* f = w_.currentFrame()) {
      s.bodies = f->snapshot.bodies.size();
      s.simTime = f->snapshot.time;
    }
    s.actions = actions;
    samples.push_back(s);
  }

  // The reference state, for comparable memory samples: no recording, the switches off, the example
  // default.json freshly opened and paused (a new world, an empty history and undo stack), and the
  // objects deleted later deleted. Its memory changes between visits only by what the run kept.
  // Returns "" or what kept the reference state from showing.
  QString showReference() {
    stopRecording();
    if (w_.sphereMode()) w_.setSphereMode(std::nullopt);
    if (w_.motion() != MotionChoice::AsSceneFile) w_.setMotion(MotionChoice::AsSceneFile);
    w_.setRunning(false);
    if (const QString error =
            w_.openDocument(QDir(scenesDir()).filePath(QStringLiteral("default.json")), true);
        !error.isEmpty())
      return QStringLiteral("default.json did not open: ") + error;
    const std::uint64_t ticket = w_.simulation().commandsPosted();
    QElapsedTimer waited;
    waited.start();
    if (!waitForFrame(
            w_,
            [&](const SimulationFrame& f) {
              return f.commandsApplied >= ticket && f.snapshot.bodies.size() > 0;
            },
            kThreadAnswerMs)) {
      const SimulationFrame* f = w_.currentFrame();
      return QStringLiteral(
                 "no frame of default.json within %1 ms (commands posted %2; the last frame: %3 applied, "
                 "%4 bodies, t = %5 s, %6, problem '%7')")
          .arg(waited.elapsed())
          .arg(ticket)
          .arg(f ? f->commandsApplied : 0)
          .arg(f ? f->snapshot.bodies.size() : 0)
          .arg(f ? f->snapshot.time : 0.0)
          .arg(f ? QString::fromStdString(f->sceneFile) : QStringLiteral("no frame"))
          .arg(f ? QString::fromStdString(f->problem) : QString());
    }
    pauseFor(300);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return QString();
  }

  // Draws every example scene once in every kind of picture the run can ask for: in the window and
  // offscreen (screenshots, movies) at two sizes, with the default overlays, with all of them, and in
  // anaglyph stereo. Caches that only fill until each kind has been drawn once are full after this:
  // Mesa's llvmpipe compiles a shader variant per render state and target and keeps it (seed 1's
  // first movie of the spherocylinder gas added 57 MiB of them to the heap, for good, at 30 s).
  // Memory measured after this is what the run itself keeps. Returns "" or what went wrong.
  QString drawEveryKindOfPicture() {
    Viewport* view = w_.viewport();
    const render::ViewOptions before = view->options();
    render::ViewOptions stereo = before;  // every item the View menu has
    setViewItems(stereo, viewItemNames());
    render::ViewOptions all = stereo;
    all.stereo = false;
    setColoring(all, QStringLiteral("speed"));
    setColoring(stereo, QStringLiteral("omega"));
    w_.setRunning(false);
    for (const QString& path : scenes_) {
      if (path.isEmpty()) {
        w_.openDefaultScene();
      } else if (const QString error = w_.openDocument(path, true); !error.isEmpty()) {
        return error;
      }
      const std::uint64_t ticket = w_.simulation().commandsPosted();
      if (!waitForFrame(
              w_, [&](const SimulationFrame& f) { return f.commandsApplied >= ticket; }, kThreadAnswerMs))
        return path + QStringLiteral(": no frame");
      for (const render::ViewOptions& options : {before, all, stereo}) {
        view->options() = options;
        view->repaint();
        if (view->renderImage(view->size(), true).isNull() ||
            view->renderImage(QSize(320, 180), false).isNull())
          return path + QStringLiteral(": no offscreen image");
      }
      view->options() = before;
    }
    view->update();
    return QString();
  }

  // The simulation thread answers a pause within kThreadAnswerMs, as a user presses it at any time
  // (a long cim step is abandoned for it: SimulationLoop::StepInProgress; a drag's moves and the
  // autosave wait for the step, which a stiff contact edited in can make minutes long). The run then
  // goes on.
  bool threadAnswers() {
    const bool wasRunning = w_.running();
    w_.setRunning(false);
    const std::uint64_t ticket = w_.simulation().commandsPosted();
    const bool answered = waitForFrame(
        w_, [&](const SimulationFrame& f) { return f.commandsApplied >= ticket; }, kThreadAnswerMs);
    if (wasRunning) w_.setRunning(true);
    return answered;
  }

  // One random action, then a random pause of 20 to 250 ms with the event loop running.
  void step() {
    struct Choice {
      const char* name;
      int weight;
      std::function<void()> act;
    };
    const std::vector<Choice> choices = {
        {"edit number", 14, [this] { editNumber(); }},
        {"choose option", 5, [this] { chooseOption(); }},
        {"speed", 3, [this] { changeSpeed(); }},
        {"run/pause", 6, [this] { trigger(w_.running() ? "Pause" : "Run"); }},
        {"step", 4, [this] { repeat(1 + uniform(0, 4), [this] { trigger("Step"); }); }},
        {"step back", 3, [this] { trigger("Step back"); }},
        {"reset", 2, [this] { trigger("Reset"); }},
        {"spawn", 8, [this] { spawn(); }},
        {"drag", 8, [this] { dragBody(); }},
        {"camera", 4, [this] { moveCamera(); }},
        {"delete", 2, [this] { deleteBody(); }},
        {"undo", 4, [this] { w_.undoStack()->undo(); }},
        {"redo", 3, [this] { w_.undoStack()->redo(); }},
        {"open scene", 3, [this] { openScene(); }},
        {"view toggle", 3, [this] { toggleView(); }},
        {"record", 3, [this] { record(); }},
        {"screenshot", 2, [this] { screenshot(); }},
        {"recover", 2, [this] { recover(); }},
        {"switch", 1, [this] { switchMode(); }},
    };
    int total = 0;
    for (const Choice& c : choices) total += c.weight;
    int pick = uniform(0, total - 1);
    const Choice* chosen = &choices.front();
    for (const Choice& c : choices) {
      if (pick < c.weight) {
        chosen = &c;
        break;
      }
      pick -= c.weight;
    }
    note_.clear();
    withinOrAbort(kActionTimeoutMs,
                  recentActions() +
                      QStringLiteral("\nthe action '%1' (#%2)").arg(QLatin1String(chosen->name)).arg(actions),
                  chosen->act);
    ++counts[QLatin1String(chosen->name)];
    const SimulationFrame* f = w_.currentFrame();
    log_ << QStringLiteral("  #%1 %2 %3  [bodies %4, t = %5 s]")
                .arg(actions)
                .arg(QLatin1String(chosen->name), note_)
                .arg(f ? f->snapshot.bodies.size() : 0)
                .arg(f ? f->snapshot.time : 0.0);
    if (verbose) {
      std::printf("%s heap %.1f MiB, RSS %.1f MiB\n", qPrintable(log_.back()), heapInUseMiB(), residentMiB());
      std::fflush(stdout);
    }
    if (log_.size() > 40) log_.removeFirst();
    ++actions;
    pauseFor(uniform(20, 250));
    stopLongRecording();
  }

  // Ends a recording in progress (what the Record action does when unchecked).
  void stopRecording() {
    if (!w_.recording()) return;
    if (QAction* a = findAction(w_, QStringLiteral("● Record")); a && a->isChecked()) a->trigger();
    waitForFrame(
        w_, [&](const SimulationFrame&) { return !w_.recording(); }, clumplab::test::wallClockMs(10'000));
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double uniformReal(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <class Fn>
  void repeat(int n, Fn fn) {
    for (int i = 0; i < n; ++i) fn();
  }

  void pauseFor(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
      w_.tick();
      QThread::msleep(2);
    }
  }

  void trigger(const char* text) {
    note_ += QString::fromUtf8(text) + QLatin1Char(' ');
    if (QAction* a = findAction(w_, QString::fromUtf8(text)); a && a->isEnabled()) a->trigger();
  }

  // A number field of the Parameters panel, typed in as a user does: a new value near the shown one
  // (a factor of e^N(0, 0.5)), sometimes far from it, which may make the run diverge.
  void editNumber() {
    std::vector<ScientificSpinBox*> fields;
    for (ScientificSpinBox* b : w_.parametersDock()->findChildren<ScientificSpinBox*>())
      if (b->isVisible() && b->isEnabled()) fields.push_back(b);
    if (fields.empty()) return;
    ScientificSpinBox* box =
        fields[static_cast<std::size_t>(uniform(0, static_cast<int>(fields.size()) - 1))];
    const QString what = box->objectName();
    const bool signedField = what.contains(QLatin1String("gravity")) || what.contains(QLatin1String("field"));
    double v = box->value();
    if (v == 0.0) {
      if (!signedField && !chance(0.3)) return;
      v = signedField ? uniformReal(-12.0, 12.0) : uniformReal(0.01, 1.0) * std::max(box->minimum(), 1e-3);
    } else {
      v *= std::exp(std::normal_distribution<double>(0.0, chance(0.1) ? 1.5 : 0.5)(rng_));
      if (signedField && chance(0.2)) v = -v;
    }
    v = std::clamp(v, box->minimum(), box->maximum());
    w_.parametersDock()->raise();
    box->setFocus();
    box->selectAll();
    note_ = what + QStringLiteral(" = ") + QString::number(v, 'g', 5);
    QTest::keyClicks(box, QString::number(v, 'g', 5));
    QTest::keyClick(box, Qt::Key_Enter);
  }

  // The panel's integrator, contact model, normal damping or run speed, as chosen from its list.
  void chooseOption() {
    std::vector<QComboBox*> boxes;
    for (QComboBox* b : w_.parametersDock()->findChildren<QComboBox*>()) {
      if (b->isVisible() && b->isEnabled() && b->count() > 1 && b->objectName() != QLatin1String("motion"))
        boxes.push_back(b);
    }
    if (boxes.empty()) return;
    QComboBox* box = boxes[static_cast<std::size_t>(uniform(0, static_cast<int>(boxes.size()) - 1))];
    const int index = uniform(0, box->count() - 1);
    note_ = box->objectName() + QStringLiteral(" = ") + box->itemText(index);
    box->setCurrentIndex(index);
    emit box->activated(index);
  }

  void changeSpeed() {
    if (chance(0.5)) {
      trigger(chance(0.5) ? "Faster" : "Slower");
    } else {
      const double speed = std::pow(10.0, uniformReal(-2.0, 0.0));
      const bool asFast = chance(0.3);
      note_ = asFast ? QStringLiteral("as fast as possible") : QString::number(speed, 'g', 3);
      w_.setSpeed(speed, asFast);
    }
  }

  QPoint randomPixel() {
    const QSize s = w_.viewport()->size();
    return {uniform(s.width() / 8, s.width() * 7 / 8), uniform(s.height() / 8, s.height() * 7 / 8)};
  }

  // A body's centre on screen, if it is in the view (a random one of the shown frame).
  std::optional<QPoint> bodyPixel() {
    const SimulationFrame* f = w_.currentFrame();
    if (!f || f->snapshot.bodies.size() == 0) return std::nullopt;
    const auto i = static_cast<std::size_t>(uniform(0, static_cast<int>(f->snapshot.bodies.size()) - 1));
    const Eigen::Vector2d p = w_.viewport()->camera().project(f->snapshot.bodies.position[i]);
    if (!p.allFinite()) return std::nullopt;
    const QPoint pixel(static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())));
    if (!w_.viewport()->rect().contains(pixel)) return std::nullopt;
    return pixel;
  }

  void spawn() {
    const QPoint at = chance(0.5) ? bodyPixel().value_or(randomPixel()) : randomPixel();
    const bool shoot = chance(0.3);
    note_ = QStringLiteral("%1 at (%2, %3)").arg(shoot ? "shot" : "dropped").arg(at.x()).arg(at.y());
    w_.spawnAt(at, shoot);
  }

  // A press on a body (found by projecting its centre; the view's picking decides what it grabs),
  // a few moves, a release: the simulation thread gets the drag's spring, or the body's new place when
  // paused.
  void dragBody() {
    Viewport* view = w_.viewport();
    const QPoint from = bodyPixel().value_or(randomPixel());
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
    const QPoint by(uniform(-150, 150), uniform(-150, 150));
    const int moves = uniform(3, 12);
    for (int k = 1; k <= moves; ++k) {
      QTest::mouseMove(view, from + by * k / moves);
      pauseFor(uniform(5, 40));
    }
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, from + by);
  }

  void moveCamera() {
    Viewport* view = w_.viewport();
    if (chance(0.4)) {
      const QPoint at = randomPixel();
      QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, chance(0.5) ? 120 : -120),
                        Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(view, &wheel);
      return;
    }
    // Orbit from an empty corner, or pan with the right button.
    const Qt::MouseButton button = chance(0.5) ? Qt::LeftButton : Qt::RightButton;
    const QPoint from(uniform(2, 12), uniform(2, 12));
    QTest::mousePress(view, button, Qt::NoModifier, from);
    const QPoint by(uniform(0, 80), uniform(0, 80));
    for (int k = 1; k <= 4; ++k) QTest::mouseMove(view, from + by * k / 4);
    QTest::mouseRelease(view, button, Qt::NoModifier, from + by);
    if (chance(0.2)) trigger("Fit all");
  }

  void deleteBody() {
    if (const auto pixel = bodyPixel()) {
      QTest::mouseClick(w_.viewport(), Qt::LeftButton, Qt::NoModifier, *pixel);
      trigger("Delete selected body");
    }
  }

  void openScene() {
    const QString path = scenes_[uniform(0, static_cast<int>(scenes_.size()) - 1)];
    note_ = path.isEmpty() ? QStringLiteral("(default)") : QFileInfo(path).fileName();
    if (path.isEmpty()) {
      w_.openDefaultScene();
    } else if (const QString error = w_.openDocument(path, true); !error.isEmpty()) {
      // A scene may not fit as spheres or in a plane (the switches apply to the files opened next):
      // refused, with a message naming the file, and the scene before stays.
      if (!error.contains(path))
        QFAIL(qPrintable(QStringLiteral("%1: the error does not name the file: %2").arg(path, error)));
      ++refusedOpens;
      note_ += QStringLiteral(" refused: ") + error.mid(path.size(), 60);
    }
    ++opened_[path.isEmpty() ? QStringLiteral("(default)") : QFileInfo(path).fileName()];
  }

  void toggleView() {
    static const char* const kToggles[] = {"Pebbles",
                                           "Wireframe",
                                           "Trails",
                                           "Contact points",
                                           "Velocity v",
                                           "Angular velocity ω",
                                           "Body axes and centre of mass",
                                           "Anaglyph stereo (red/cyan)",
                                           "Track selected body"};
    trigger(kToggles[uniform(0, static_cast<int>(std::size(kToggles)) - 1)]);
  }

  // Starts a movie (through the Record action and its dialog, or directly as --record does), or
  // stops the one being recorded.
  void record() {
    if (!kCanFork) return;
    if (w_.recording()) {
      if (chance(0.6)) stopRecording();
      return;
    }
    const QString name = QStringLiteral("movie-%1").arg(movies.size(), 3, 10, QLatin1Char('0'));
    const bool png = chance(0.15);
    const QString path = QDir(movieDir_).filePath(png ? name : name + (chance(0.3) ? ".webm" : ".mp4"));
    deterministic_ = false;
    if (chance(0.5)) {
      nextMovie_ = path;
      trigger("● Record");  // the dialog opens; answerModal fills it in and accepts it
    } else {
      RecordingPlan plan;
      plan.movie.path = path;
      plan.movie.format = MovieSettings::formatFor(path);
      plan.movie.framesPerSecond = 15;
      plan.realTime = chance(0.5);
      plan.duration = uniformReal(0.05, 0.4);
      plan.plot = chance(0.3) ? (chance(0.5) ? RecordingPlan::Plot::Energy : RecordingPlan::Plot::BodyOmega)
                              : RecordingPlan::Plot::None;
      if (chance(0.3)) plan.frameSize = QSize(320, 180);
      note_ = QStringLiteral("%1 %2 s%3")
                  .arg(plan.realTime ? "real time" : "deterministic")
                  .arg(plan.duration)
                  .arg(path.right(5));
      if (!w_.startRecording(plan)) return;
      deterministic_ = !plan.realTime;
    }
    if (w_.recording()) {
      movies << path;
      recordingClock_.start();
    }
  }

  // A deterministic recording of a heavy scene (1000 bodies at a 10 us step) may take minutes: the
  // user stops it after one (a real-time one runs until the next "record" action stops it).
  void stopLongRecording() {
    if (w_.recording() && deterministic_ && recordingClock_.isValid() && recordingClock_.elapsed() > 60'000) {
      ++longRecordings;
      stopRecording();
    }
  }

  void screenshot() {
    const QString path = QDir(movieDir_).filePath(QStringLiteral("shot.png"));
    const QImage image =
        chance(0.5) ? w_.viewport()->grabFramebuffer() : w_.viewport()->renderImage(QSize(640, 360), true);
    if (image.isNull() || !saveImageAtomically(image, path)) QFAIL("a screenshot could not be taken");
    ++screenshots_;
  }

  // The divergence banner's fix (back to the last good state with half the step), or a reset.
  void recover() {
    if (!w_.divergenceBannerShown()) return;
    if (chance(0.7)) {
      w_.recoverWithHalfStep();
    } else {
      trigger("Reset");
    }
  }

  // PaLa's switches: clumps as spheres, 2D / 3D (each reopens the scene).
  void switchMode() {
    if (chance(0.5)) {
      const int k = uniform(0, 2);
      note_ = QStringLiteral("spheres %1").arg(k);
      w_.setSphereMode(k == 0 ? std::nullopt
                              : std::optional(k == 1 ? SphereKind::Bounding : SphereKind::VolumeEquivalent));
    } else {
      note_ = QStringLiteral("motion");
      w_.setMotion(
          kMotionChoices[static_cast<std::size_t>(uniform(0, static_cast<int>(kMotionChoices.size()) - 1))]);
    }
  }

  void answerModal() {
    QWidget* modal = QApplication::activeModalWidget();
    if (!modal) return;
    if (auto* dialog = qobject_cast<RecordDialog*>(modal)) {
      for (QLineEdit* edit : dialog->findChildren<QLineEdit*>())
        if (!qobject_cast<QAbstractSpinBox*>(edit->parent())) edit->setText(nextMovie_);  // the movie's path
      for (QComboBox* timing : dialog->findChildren<QComboBox*>()) {
        if (!timing->itemText(0).startsWith(QLatin1String("Deterministic"))) continue;
        timing->setCurrentIndex(uniform(0, 1));
        deterministic_ = timing->currentIndex() == 0;
        note_ += QStringLiteral("%1 %2 ").arg(deterministic_ ? "deterministic" : "real time",
                                              nextMovie_.right(14));
      }
      for (QDoubleSpinBox* d : dialog->findChildren<QDoubleSpinBox*>())
        if (d->isEnabled()) d->setValue(std::clamp(0.2, d->minimum(), d->maximum()));  // short movies
      dialog->accept();
      return;
    }
    if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      messages << box->text().left(160);
      box->reject();
      if (box->isVisible()) box->done(QMessageBox::Cancel);
      return;
    }
    if (auto* dialog = qobject_cast<QDialog*>(modal)) dialog->reject();
  }

  MainWindow& w_;
  std::mt19937_64 rng_;
  QString movieDir_;
  QStringList scenes_;
  QTimer dismisser_;
  QString nextMovie_;
  QString note_;     // what the current action did
  QStringList log_;  // the last actions
  QElapsedTimer recordingClock_;
  bool deterministic_ = false;  // the recording in progress is

 public:
  QMap<QString, int> opened_;
  int screenshots_ = 0;
};

}  // namespace

class TestSoak : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat());
    useTestSettings(QStringLiteral("tst_soak"));
    qputenv("CLUMPLAB_AUTOSAVE_SECONDS", "5");  // the autosave runs during the soak too
    qputenv("CLUMPLAB_AUTOSAVE_DIR", autosaveDir_.path().toUtf8());
  }

  void randomUserActions() {
    const double seconds = envNumber("CLUMPLAB_SOAK_SECONDS", kDefaultSeconds);
    const double sampleEvery = envNumber("CLUMPLAB_SOAK_SAMPLE_SECONDS", 2.0);
    std::uint64_t seed = std::random_device{}();
    if (const QString s = qEnvironmentVariable("CLUMPLAB_SOAK_SEED"); !s.isEmpty()) seed = s.toULongLong();
    QString csv = qEnvironmentVariable("CLUMPLAB_SOAK_CSV");
    if (csv.isEmpty())
      csv = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("soak-rss.csv"));
    std::printf(
        "soak: %.0f s, seed %llu (CLUMPLAB_SOAK_SEED=%llu reproduces the choices), memory series in %s\n",
        seconds, static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
        qPrintable(csv));
    std::fflush(stdout);
    const QString ffprobe = QStandardPaths::findExecutable(QStringLiteral("ffprobe"));
    if (kCanFork && QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty())
      QSKIP("ffmpeg is not installed");

    QTemporaryDir movies;
    auto* w = new MainWindow;
    w->resize(1400, 900);
    w->setRunning(true);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    w->openDefaultScene();
    QVERIFY(waitForFrame(*w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 0; }));

    Soak soak(*w, seed, movies.path());
    if (kCheckMemory) {
      QElapsedTimer tour;
      tour.start();
      const QString problem = soak.drawEveryKindOfPicture();
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
      std::printf("soak: every example scene drawn in every kind of picture in %.1f s (heap %.1f MiB)\n",
                  static_cast<double>(tour.elapsed()) / 1000.0, heapInUseMiB());
      std::fflush(stdout);
      w->openDefaultScene();
      w->setRunning(true);
    }

    QFile out(csv);
    QVERIFY2(out.open(QIODevice::WriteOnly | QIODevice::Text), qPrintable(csv));
    out.write("time_s,rss_MiB,heap_MiB,threads,bodies,sim_time_s,actions,reference\n");
    QElapsedTimer clock;
    clock.start();
    double nextSample = 0.0, nextReference = 0.0;
    while (true) {
      double now = static_cast<double>(clock.elapsed()) / 1000.0;
      const bool reference = now >= nextReference || now >= seconds;
      if (reference) {
        const QString problem = soak.showReference();
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("seed %1 at %2 s: the reference scene: %3\n"
                                                              "the last actions:\n%4")
                                                   .arg(seed)
                                                   .arg(now, 0, 'f', 1)
                                                   .arg(problem, soak.recentActions())));
        nextReference += seconds / kReferenceVisits;
        now = static_cast<double>(clock.elapsed()) / 1000.0;
      }
      if (reference || now >= nextSample) {
        soak.sample(now, reference);
        const Sample& s = soak.samples.back();
        if (reference && soak.verbose) {
          std::printf("reference at %.1f s: heap %.1f MiB, RSS %.1f MiB\n", now, s.heapMiB, s.rssMiB);
          std::fflush(stdout);
        }
        out.write(QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                      .arg(s.wallSeconds, 0, 'f', 2)
                      .arg(s.rssMiB, 0, 'f', 2)
                      .arg(s.heapMiB, 0, 'f', 2)
                      .arg(s.threads)
                      .arg(s.bodies)
                      .arg(s.simTime, 0, 'g', 8)
                      .arg(s.actions)
                      .arg(s.reference ? 1 : 0)
                      .toUtf8());
        out.flush();
        const bool answers = soak.threadAnswers();
        if (!answers) {
          std::printf("soak: the last actions:\n%s\n", qPrintable(soak.recentActions()));
          printStacks();
        }
        QVERIFY2(answers,
                 qPrintable(QStringLiteral(
                                "seed %1: the simulation thread did not answer a pause within %2 ms at %3 s")
                                .arg(seed)
                                .arg(kThreadAnswerMs)
                                .arg(now)));
        if (!reference) nextSample += sampleEvery;
      }
      if (now >= seconds) break;
      soak.step();
      if (QTest::currentTestFailed()) {
        std::printf("soak: the last actions:\n%s\n", qPrintable(soak.recentActions()));
        QFAIL(qPrintable(QStringLiteral("seed %1, action %2").arg(seed).arg(soak.actions)));
      }
    }
    soak.stopRecording();
    out.close();

    // What was done.
    QStringList done;
    for (auto it = soak.counts.cbegin(); it != soak.counts.cend(); ++it)
      done << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    QStringList opened;
    for (auto it = soak.opened_.cbegin(); it != soak.opened_.cend(); ++it)
      opened << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    std::printf("soak: %ld actions: %s\n", soak.actions, qPrintable(done.join(QStringLiteral(", "))));
    std::printf("soak: scenes opened: %s (%d refused under a sphere or 2D switch)\n",
                qPrintable(opened.join(QStringLiteral(", "))), soak.refusedOpens);
    std::printf(
        "soak: %lld movies recorded (%d deterministic ones stopped after a minute), %d screenshots, %lld "
        "message boxes closed\n",
        static_cast<long long>(soak.movies.size()), soak.longRecordings, soak.screenshots_,
        static_cast<long long>(soak.messages.size()));
    QMap<QString, int> kinds;
    for (const QString& m : soak.messages) ++kinds[m.left(70)];
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
      std::printf("soak:   %dx %s\n", it.value(), qPrintable(it.key()));

    // Every movie is complete: ffprobe reads its frames (a PNG sequence: its images).
    int frames = 0;
    for (const QString& movie : soak.movies) {
      if (QFileInfo(movie).isDir()) {
        const auto n = QDir(movie).entryList({QStringLiteral("frame-*.png")}, QDir::Files).size();
        QVERIFY2(n > 0, qPrintable(movie));
        frames += static_cast<int>(n);
        continue;
      }
      QVERIFY2(QFileInfo(movie).size() > 0, qPrintable(movie + QStringLiteral(": empty or missing")));
      if (ffprobe.isEmpty()) continue;
      const QStringList info = videoStreamInfo(ffprobe, movie).split(QLatin1Char(','));
      QVERIFY2(info.size() == 5 && info.back().toInt() > 0,
               qPrintable(movie + QStringLiteral(": ") + info.join(',')));
      frames += info.back().toInt();
    }
    std::printf("soak: the movies hold %d frames in all%s\n", frames,
                ffprobe.isEmpty() ? " (no ffprobe: sizes only)" : "");

    // Memory: the peak over all samples; the growth after the warm-up (the first third) as the
    // least-squares slope of all samples (reported) and of the reference visits (checked) times the
    // run's length; threads.
    const std::vector<Sample>& s = soak.samples;
    QVERIFY(s.size() >= 6);
    std::vector<double> t, rss, heap, refT, refRss, refHeap;
    double peak = 0.0;
    int warmThreads = 0, lateThreads = 0;
    QStringList visits;
    for (const Sample& x : s) {
      peak = std::max(peak, x.rssMiB);
      if (x.reference)
        visits << QStringLiteral("%1 s: %2/%3")
                      .arg(x.wallSeconds, 0, 'f', 0)
                      .arg(x.rssMiB, 0, 'f', 1)
                      .arg(x.heapMiB, 0, 'f', 1);
      if (x.wallSeconds < seconds / 3.0) {
        warmThreads = std::max(warmThreads, x.threads);
        continue;
      }
      t.push_back(x.wallSeconds);
      rss.push_back(x.rssMiB);
      heap.push_back(x.heapMiB);
      if (x.reference) {
        refT.push_back(x.wallSeconds);
        refRss.push_back(x.rssMiB);
        refHeap.push_back(x.heapMiB);
      }
      lateThreads = std::max(lateThreads, x.threads);
    }
    QVERIFY(refT.size() >= 3);
    const double rssGrowth = robustSlope(t, rss) * seconds, heapGrowth = robustSlope(t, heap) * seconds;
    const double refRssGrowth = robustSlope(refT, refRss) * seconds;
    const double refHeapGrowth = robustSlope(refT, refHeap) * seconds;
    std::printf(
        "soak: RSS first %.1f MiB, peak %.1f MiB (VmHWM %.1f), last %.1f MiB; heap in use first %.1f, last "
        "%.1f MiB\n"
        "soak: after the warm-up, Theil-Sen slope x %.0f s: all samples RSS %+.1f MiB, heap %+.1f MiB; "
        "reference "
        "visits RSS "
        "%+.1f MiB, heap %+.1f MiB\n"
        "soak: reference visits (RSS/heap MiB): %s\n"
        "soak: threads %d in the warm-up, at most %d after\n",
        s.front().rssMiB, peak, peakResidentMiB(), s.back().rssMiB, s.front().heapMiB, s.back().heapMiB,
        seconds, rssGrowth, heapGrowth, refRssGrowth, refHeapGrowth,
        qPrintable(visits.join(QStringLiteral(", "))), warmThreads, lateThreads);
    std::fflush(stdout);
    if (!kCheckMemory) qWarning("under a sanitizer: the memory figures are not checked");
    QVERIFY2(!kCheckMemory || refHeapGrowth < kMaxHeapGrowthMiB,
             qPrintable(QStringLiteral("seed %1: the heap in the reference state grows %2 MiB over the run")
                            .arg(seed)
                            .arg(refHeapGrowth)));
    QVERIFY2(!kCheckMemory || refRssGrowth < kMaxRssGrowthMiB,
             qPrintable(QStringLiteral("seed %1: RSS in the reference state grows %2 MiB over the run")
                            .arg(seed)
                            .arg(refRssGrowth)));
    QVERIFY2(!kCheckMemory || peak < kMaxPeakRssMiB,
             qPrintable(QStringLiteral("seed %1: RSS peaked at %2 MiB").arg(seed).arg(peak)));
    QVERIFY2(lateThreads <= warmThreads + kMaxExtraThreads,
             qPrintable(QStringLiteral("seed %1: %2 threads after the warm-up, %3 before")
                            .arg(seed)
                            .arg(lateThreads)
                            .arg(warmThreads)));

    // Closing joins the running simulation thread (the window keeps an idle one for late signals);
    // deleting the window joins that one: no thread named "simulation" is left.
    const std::vector<long> before = threadsNamed(QStringLiteral("simulation"));
    QCOMPARE(before.size(), std::size_t{1});
    w->setRunning(true);
    QElapsedTimer joinClock;
    joinClock.start();
    withinOrAbort(kJoinMs, QStringLiteral("closing the window"), [&] { QVERIFY(w->close()); });
    const qint64 closeMs = joinClock.elapsed();
    const std::vector<long> afterClose = threadsNamed(QStringLiteral("simulation"));
    QVERIFY2(std::find(afterClose.begin(), afterClose.end(), before.front()) == afterClose.end(),
             "the running simulation thread is still there after the window closed");
    joinClock.restart();
    withinOrAbort(kJoinMs, QStringLiteral("deleting the window"), [&] { delete w; });
    const qint64 deleteMs = joinClock.elapsed();
    QCOMPARE(threadsNamed(QStringLiteral("simulation")).size(), std::size_t{0});
    std::printf("soak: the simulation thread joined: close %lld ms, delete %lld ms\n",
                static_cast<long long>(closeMs), static_cast<long long>(deleteMs));
  }

  // The executable: a scripted run with --quit ends by itself with status 0, its autosave removed.
  void appQuitsAfterAScriptedRun() {
    if (!kCanFork) QSKIP("ThreadSanitizer does not support fork in a threaded program");
    QTemporaryDir home;
    QProcess app;
    app.setProcessEnvironment(appEnvironment(home.path()));
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer clock;
    clock.start();
    app.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--scene"), scenesDir() + QStringLiteral("/rotating-drum.json"),
               QStringLiteral("--run-for"), QStringLiteral("0.05"), QStringLiteral("--quit")});
    QVERIFY(app.waitForStarted());
    QVERIFY2(app.waitForFinished(kAppExitMs + 60'000), "clumplab --run-for 0.05 --quit did not end");
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(autosaveFiles(home.path()), QStringList());
    std::printf("soak: clumplab --run-for 0.05 --quit ended with 0 after %lld ms\n",
                static_cast<long long>(clock.elapsed()));
  }

  // SIGTERM (a logout, kill) and SIGINT (Ctrl+C) close a running app as Quit does: the simulation
  // thread joins, the autosave goes, status 0, within kAppExitMs.
  void appClosesOnTerminationSignals_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int{SIGTERM};
    QTest::newRow("SIGINT") << int{SIGINT};
  }
  void appClosesOnTerminationSignals() {
    if (!kCanFork) QSKIP("ThreadSanitizer does not support fork in a threaded program");
    QFETCH(int, signal);
    QTemporaryDir home;
    QProcess app;
    QProcessEnvironment env = appEnvironment(home.path());
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_SECONDS"), QStringLiteral("1"));
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--scene"), scenesDir() + QStringLiteral("/rotating-drum.json")});
    QVERIFY(app.waitForStarted());
    // Running: an autosave of the live world has been written.
    QElapsedTimer clock;
    clock.start();
    while (
        clock.elapsed() < 90'000 &&
        QDir(autosaveDir(home.path())).entryList({QStringLiteral("session-*.json")}, QDir::Files).isEmpty())
      QTest::qWait(100);
    QVERIFY2(!autosaveFiles(home.path()).isEmpty(), "the app did not autosave within 90 s");
    QTest::qWait(500);
    clock.restart();
    QCOMPARE(::kill(static_cast<pid_t>(app.processId()), signal), 0);
    QVERIFY2(app.waitForFinished(kAppExitMs), "the app did not close after the signal");
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(autosaveFiles(home.path()), QStringList());  // a clean exit
    std::printf("soak: clumplab closed %lld ms after signal %d, status 0\n",
                static_cast<long long>(clock.elapsed()), signal);
  }

 private:
  static QString autosaveDir(const QString& home) { return QDir(home).filePath(QStringLiteral("autosave")); }
  static QStringList autosaveFiles(const QString& home) {
    return QDir(autosaveDir(home)).entryList(QDir::Files | QDir::NoDotAndDotDot);
  }
  // The app's settings, data and autosave in `home`, not the user's.
  static QProcessEnvironment appEnvironment(const QString& home) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir(home).filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), QDir(home).filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), QDir(home).filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_DIR"), autosaveDir(home));
    env.insert(QStringLiteral("CLUMPLAB_AUTOSAVE_SECONDS"), QStringLiteral("60"));
    return env;
  }

  QTemporaryDir autosaveDir_;
};

int main(int argc, char** argv) {
  // The random run may be longer than QtTest's default limit of 5 minutes per test function.
  if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT")) {
    const double seconds = envNumber("CLUMPLAB_SOAK_SECONDS", kDefaultSeconds);
    qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number(static_cast<qint64>((seconds + 600.0) * 1000.0)));
  }
  QApplication app(argc, argv);
  TestSoak test;
  return QTest::qExec(&test, argc, argv);
}
#include "tst_soak.moc"
