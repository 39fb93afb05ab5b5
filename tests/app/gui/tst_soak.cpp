// The soak test: the real main window driven for minutes by random user actions from a
// seeded generator (parameter edits typed into the Parameters panel, integrator and speed choices,
// spawns, mouse drags of bodies in the 3D view, camera moves, run / pause / step / step back /
// reset, undo / redo, the example scenes opened in turn, movies recorded through the Record dialog
// and directly, screenshots), while the process's memory is sampled. It fails on a crash or a hang
// (each action and the simulation thread's answer are time-bounded), on memory that keeps growing
// after a warm-up, on a broken movie, and when closing the window does not join the simulation
// thread. Memory is judged at visits to a reference state (the same scene, freshly opened), where
// only what the run kept can differ. The actions themselves: SoakActions.hpp; the executable closed
// by --quit, SIGTERM and SIGINT: tst_gui_shutdown.
//
//   CLUMPLAB_SOAK_SECONDS   length of the random run [s] (default 60; the full soak is 600)
//   CLUMPLAB_SOAK_SEED      the generator's seed (default: a random one, printed), to reproduce a run
//   CLUMPLAB_SOAK_CSV       the memory series (default: soak-rss.csv beside this program)
//   CLUMPLAB_SOAK_SAMPLE_SECONDS  between memory samples (default 2)
#include <malloc.h>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <random>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "ProcessProbe.hpp"
#include "SoakActions.hpp"
#include "TestPaths.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
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
constexpr int kReferenceVisits = 10;              // visits to the reference state, evenly over the run
constexpr std::size_t kMinSamples = 6;            // the fewest samples the memory figures are drawn from
constexpr std::ptrdiff_t kMinLateReferences = 3;  // and reference visits after the warm-up
// The simulation thread applies a command within this; closing the window joins it within this
// (measured in the release build, scaled for the sanitizers).
constexpr int kThreadAnswerMs = clumplab::test::wallClockMs(30'000);
constexpr int kJoinMs = clumplab::test::wallClockMs(10'000);

double envNumber(const char* name, double fallback) {
  bool ok = false;
  const double v = qEnvironmentVariable(name).toDouble(&ok);
  return ok ? v : fallback;
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

// One soak run: the random actions (SoakActions), and what was measured between them.
class Soak : public SoakActions {
 public:
  using SoakActions::SoakActions;

  std::vector<Sample> samples;

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

  // Enough samples for the growth and thread figures: kMinSamples in all and kMinLateReferences
  // reference visits after the warm-up (the first third of `seconds`). Samples are taken between
  // actions, so a run whose actions are slow (a big scene opened under TSan takes ~20 s) has fewer by
  // its planned end, and then goes on until it has them.
  [[nodiscard]] bool enoughSamples(double seconds) const {
    const auto lateReferences = std::count_if(samples.begin(), samples.end(), [&](const Sample& x) {
      return x.reference && x.wallSeconds >= seconds / 3.0;
    });
    return samples.size() >= kMinSamples && lateReferences >= kMinLateReferences;
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
      if (now >= seconds && soak.enoughSamples(seconds)) break;
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
    QVERIFY(soak.enoughSamples(seconds));
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

 private:
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