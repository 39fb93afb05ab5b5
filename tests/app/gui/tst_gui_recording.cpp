// Movies from the real main window (under Xvfb in CI): deterministic and real-time recordings,
// offscreen frames with the energy plot, a slow or missing ffmpeg, the Record dialog of a replay,
// and recordings ended by a new document, a pause or a reset.
#include <QCheckBox>
#include <QDir>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "GuiScenes.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/recording/MovieEncoder.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/PlotInset.hpp"
#include "gui/recording/RecordDialog.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

class TestGuiRecording : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() { useTestSettings(QStringLiteral("tst_gui_recording")); }

  // Deterministic recording: one frame per 1 / (fps x slow motion) of simulated time.
  void recordedMovieHasTheFramesAndSizeAsked() {
#if CLUMPLAB_UNDER_TSAN
    // ffmpeg runs as a child process: ThreadSanitizer does not support fork in a threaded program.
    QSKIP("starts ffmpeg (fork), which ThreadSanitizer does not support in a multithreaded process");
#endif
    const QString ffprobe = QStandardPaths::findExecutable(QStringLiteral("ffprobe"));
    if (ffprobe.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty()) {
      QSKIP("ffmpeg/ffprobe not installed");
    }
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(320, 200), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("fall.mp4"));
    plan.movie.format = MovieSettings::formatFor(plan.movie.path);
    plan.movie.framesPerSecond = 12;
    plan.duration = 0.25;   // simulated seconds
    plan.slowMotion = 4.0;  // 1 s of video: 12 frames, one every 1/48 s of simulated time
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(done.wait(30000));
    QCOMPARE(done.front().front().toString(), QString());
    QCOMPARE(recorder.framesWritten(), 12);
    // The last frame shows t = 11/48 s.
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    CLUMPLAB_COMPARE_REL(f->snapshot.time, 11.0 / 48.0, 1e-2);
    const QString info = videoStreamInfo(ffprobe, plan.movie.path);
    const QSize size = QSize(320, 200) * w.viewport()->devicePixelRatio();
    QCOMPARE(info, QStringLiteral("h264,%1,%2,yuv420p,12").arg(size.width() & ~1).arg(size.height() & ~1));
  }

  // A recording started while the run runs pauses it to take its frames, and the run goes on after
  // (it stayed paused). PNG frames: no ffmpeg needed.
  void aRunningSceneRunsOnAfterARecording() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, true, QSize(320, 200), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    QVERIFY(
        waitForFrame(w, [](const SimulationFrame& f) { return !f.stats.paused && f.snapshot.steps > 0; }));
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieSettings::formatFor(plan.movie.path);
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.05;
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(done.wait(30000));
    QCOMPARE(done.front().front().toString(), QString());
    QVERIFY(w.running());
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    const std::uint64_t steps = f->snapshot.steps;
    QVERIFY(waitForFrame(
        w, [&](const SimulationFrame& g) { return !g.stats.paused && g.snapshot.steps > steps; }));
  }

  // A slow encoder makes the recording wait: at most kMaxFramesWaitingBytes (two frames if more)
  // wait in the pipe, whatever the frame size (64 full-HD frames, 400 MB, waited before).
  void framesWaitingForASlowEncoderAreBounded() {
#if CLUMPLAB_UNDER_TSAN
    QSKIP("starts a child process (fork), which ThreadSanitizer does not support in a multithreaded process");
#endif
    QTemporaryDir dir;
    // An "ffmpeg" that reads slowly, a 1 MB block every 20 ms, then writes the movie it was named.
    const QString slow = dir.filePath(QStringLiteral("slow-ffmpeg"));
    {
      QFile script(slow);
      QVERIFY(script.open(QIODevice::WriteOnly));
      script.write(
          "#!/bin/sh\n"
          "while [ \"$(dd bs=1048576 count=1 iflag=fullblock status=none | wc -c)\" -gt 0 ]; do sleep 0.02; "
          "done\n"
          "for a; do last=$a; done\n"
          ": > \"$last\"\n");
      script.close();
      QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
    }
    MovieSettings settings;
    settings.path = dir.filePath(QStringLiteral("big.mp4"));
    settings.format = MovieFormat::Mp4;
    settings.ffmpeg = slow;
    settings.framesPerSecond = 30;
    MovieEncoder encoder(settings);
    const QSize size(1920, 1080);
    QCOMPARE(encoder.start(size), QString());
    QImage frame(size, QImage::Format_RGB32);
    const qint64 frameBytes = 3LL * size.width() * size.height();
    qint64 mostWaiting = 0;
    for (int k = 0; k < 30; ++k) {
      frame.fill(QColor::fromHsv(12 * k, 200, 200));
      QCOMPARE(encoder.addFrame(frame), QString());
      mostWaiting = std::max(mostWaiting, encoder.bytesWaiting());
    }
    QVERIFY2(mostWaiting <= std::max(kMaxFramesWaitingBytes, 2 * frameBytes),
             qPrintable(QStringLiteral("%1 MB waited").arg(static_cast<double>(mostWaiting) / 1e6)));
    QVERIFY2(mostWaiting > kMaxFramesWaitingBytes / 2,
             "the stand-in encoder was expected to fall behind");  // else this test shows nothing
    QCOMPARE(encoder.finish(), QString());
    QCOMPARE(encoder.framesWritten(), 30);
    QVERIFY(QFileInfo::exists(settings.path));
  }

  void missingFfmpegSaysSoAndPngFramesStillRecord() {
    QTemporaryDir dir;
    MainWindow w;  // odd: frames lose a row and a column
    QCOMPARE(showScene(w, false, QSize(161, 101), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("fall.mp4"));
    plan.movie.format = MovieFormat::Mp4;
    plan.movie.ffmpeg = dir.filePath(QStringLiteral("no-such-ffmpeg"));
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.3;
    {
      MovieRecorder recorder(w, plan);
      const QString error = recorder.start();
      QVERIFY2(
          error.contains(QStringLiteral("ffmpeg was not found")) && error.contains(QStringLiteral("PNG")),
          qPrintable(error));
      QVERIFY(!QFileInfo::exists(plan.movie.path));
    }
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieSettings::formatFor(plan.movie.path);
    QCOMPARE(plan.movie.format, MovieFormat::PngSequence);
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(done.wait(30000));
    QCOMPARE(done.front().front().toString(), QString());
    const QStringList frames =
        QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}, QDir::Files, QDir::Name);
    QCOMPARE(frames.size(), 3);
    const QImage last(QDir(plan.movie.path).filePath(frames.back()));
    QCOMPARE(last.width() % 2, 0);
    QCOMPARE(last.height() % 2, 0);
  }

  // Frames of another size than the view are rendered offscreen at that size, overlays in
  // proportion, the energy plot drawn into the bottom left corner when asked.
  void offscreenFramesHaveTheAskedSizeAndThePlot() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(320, 200), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    const QSize size(400, 300);  // not the view's aspect
    const QImage plain = w.viewport()->renderImage(size, false);
    QCOMPARE(plain.size(), size);
    // The image is the right way up: the light comes from above, so the ball's upper half (the
    // ball fills the middle of the fitted view) is the brighter.
    auto brightness = [](const QImage& image, const QRect& box) {
      double sum = 0.0;
      for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x) sum += qGray(image.pixel(x, y));
      return sum / (box.width() * box.height());
    };
    QVERIFY(brightness(plain, QRect(170, 95, 60, 40)) > brightness(plain, QRect(170, 165, 60, 40)) + 10.0);

    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieFormat::PngSequence;
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.2;
    plan.frameSize = size;
    plan.plot = RecordingPlan::Plot::Energy;
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(done.wait(30000));
    QCOMPARE(done.front().front().toString(), QString());
    const QStringList frames =
        QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}, QDir::Files, QDir::Name);
    QCOMPARE(frames.size(), 2);
    const QImage first =
        QImage(QDir(plan.movie.path).filePath(frames.front())).convertToFormat(plain.format());
    QCOMPARE(first.size(), size);
    // The first frame is the instant `plain` shows: the same pixels away from the inset, others in it.
    const QRect away(size.width() / 2, 0, size.width() / 2, size.height() / 2);
    const QRect inset(10, size.height() - 70, 130, 60);
    int differentAway = 0, differentInset = 0;
    for (int y = 0; y < size.height(); ++y) {
      for (int x = 0; x < size.width(); ++x) {
        const bool differs = first.pixel(x, y) != plain.pixel(x, y);
        if (away.contains(x, y)) differentAway += differs;
        if (inset.contains(x, y)) differentInset += differs;
      }
    }
    QCOMPARE(differentAway, 0);
    QVERIFY2(differentInset > inset.width() * inset.height() / 2,
             qPrintable(QString::number(differentInset)));

    plan.frameSize = QSize(8, 8);
    MovieRecorder tiny(w, plan);
    QVERIFY(tiny.start().contains(QStringLiteral("8×8")));
  }

  // The plot in a movie's frames reads whole from the first frame on, at the sizes movies are made:
  // no tick label elided ("0… 0…" for the first half second of a --plot movie), no stray piece of
  // a title, data clear of the frame; and nothing of the scene shows through the inset.
  void plotInsetReadsWholeFromTheFirstFrame() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(768, 580), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    TimeSeriesChart& chart = *w.energyDock()->energyChart();
    const auto checkTexts = [&](QSize frame, const QString& when) {
      chart.refresh(true);  // the chart on screen, between two frames of a movie
      const QImage plot = w.energyDock()->plotImage(plotInsetFor(frame).plotSize);
      QVERIFY(!plot.isNull());
      const QStringList& texts = chart.renderedTexts();
      const QString all = texts.join(QStringLiteral(" | "));
      const QString where =
          QStringLiteral("%1 at %2×%3: %4").arg(when).arg(frame.width()).arg(frame.height()).arg(all);
      // Axis titles where the plot has the height for them (TimeSeriesChart::fitDecorations).
      if (frame.height() >= 580) QVERIFY2(texts.contains(QStringLiteral("time [s]")), qPrintable(where));
      int ticks = 0;
      for (const QString& t : texts) {
        QVERIFY2(!t.contains(QChar(0x2026)) && !t.contains(QStringLiteral("...")), qPrintable(where));
        // Every text is a whole label: a number, or a title or legend entry of more than one letter.
        bool isNumber = false;
        t.toDouble(&isNumber);
        ticks += isNumber;
        QVERIFY2(isNumber || t.isEmpty() || t.size() > 1, qPrintable(where));
      }
      QVERIFY2(ticks >= 4, qPrintable(where));  // two axes, two labels each at least
    };
    for (const QSize frame : {QSize(768, 580), QSize(1280, 720), QSize(480, 270), QSize(1920, 1080)})
      checkTexts(frame, QStringLiteral("before a sample"));
    // A movie's frames, the last one's texts.
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieFormat::PngSequence;
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.3;
    plan.frameSize = QSize(768, 580);
    plan.plot = RecordingPlan::Plot::Energy;
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(done.wait(30000));
    for (const QSize frame : {QSize(768, 580), QSize(1280, 720), QSize(480, 270), QSize(1920, 1080)})
      checkTexts(frame, QStringLiteral("after 0.3 s"));

    // Opaque: the same plot over a black and a white frame gives the same inset.
    const QSize size(640, 360);
    const QImage plot = w.energyDock()->plotImage(plotInsetFor(size).plotSize);
    QImage black(size, QImage::Format_RGB32), white(size, QImage::Format_RGB32);
    black.fill(Qt::black);
    white.fill(Qt::white);
    drawPlotInset(black, plot);
    drawPlotInset(white, plot);
    const QRect box = plotInsetFor(size).box;
    QCOMPARE(black.copy(box), white.copy(box));
    QCOMPARE(black.pixel(box.right() + 2, box.top()), QColor(Qt::black).rgb());
  }

  // The Record dialog of a replay: frames from the trajectory (one per trajectory frame, or at the
  // slow-motion rate), the replay's own duration, and no energy plot (it is the live scene's).
  void recordDialogForAReplay() {
    RecordDialog dialog(QSize(640, 480));
    dialog.setReplay(38, 0.617);
    RecordingPlan plan = dialog.plan();
    QVERIFY(plan.everyReplayFrame);
    QVERIFY(plan.plot == RecordingPlan::Plot::None);
    CLUMPLAB_COMPARE_REL(plan.duration, 0.617, 1e-12);
    QCheckBox* perFrame = nullptr;
    for (QCheckBox* b : dialog.findChildren<QCheckBox*>())
      if (b->text().contains(QStringLiteral("trajectory frame"))) perFrame = b;
    QVERIFY(perFrame != nullptr);
    perFrame->setChecked(false);
    QVERIFY(!dialog.plan().everyReplayFrame);
  }

  // Opening another document ends a movie being recorded, complete with the frames it has.
  void openingADocumentEndsARecording() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(200, 150), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieFormat::PngSequence;
    plan.movie.framesPerSecond = 10;
    plan.duration = 1000.0;  // far longer than the test
    QVERIFY(w.startRecording(plan));
    QTRY_VERIFY_WITH_TIMEOUT(QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}).size() >= 3,
                             clumplab::test::wallClockMs(10000));
    QCOMPARE(openScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    QVERIFY(!w.recording());
    QVERIFY(QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}).size() >= 3);
  }

  // Without ffmpeg the app says so and offers the PNG sequence, which then records.
  void missingFfmpegOffersPngFrames() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(240, 160), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("demo.mp4"));
    plan.movie.format = MovieFormat::Mp4;
    plan.movie.ffmpeg = dir.filePath(QStringLiteral("no-such-ffmpeg"));
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.3;
    QString asked;
    auto answer = [&](QMessageBox::StandardButton button) {
      auto* timer = new QTimer(&w);
      connect(timer, &QTimer::timeout, &w, [&asked, timer, button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        asked = box->text();
        box->button(button)->click();
        timer->deleteLater();
      });
      timer->start(20);
    };
    answer(QMessageBox::Cancel);
    QVERIFY(!w.startRecording(plan));
    QVERIFY2(asked.contains(QStringLiteral("ffmpeg")) && asked.contains(QStringLiteral("demo-frames")),
             qPrintable(asked));
    QVERIFY(!w.recording());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("demo-frames"))));

    answer(QMessageBox::Yes);
    QVERIFY(w.startRecording(plan));
    QVERIFY(w.recording());
    QTRY_VERIFY_WITH_TIMEOUT(!w.recording(), clumplab::test::wallClockMs(30000));
    QCOMPARE(QDir(dir.filePath(QStringLiteral("demo-frames")))
                 .entryList({QStringLiteral("frame-*.png")}, QDir::Files)
                 .size(),
             3);
    QVERIFY(!QFileInfo::exists(plan.movie.path));
  }

  void realTimeRecordingGrabsTheRunningView() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, true, QSize(160, 100), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("live"));
    plan.movie.format = MovieFormat::PngSequence;
    plan.movie.framesPerSecond = 20;
    plan.realTime = true;
    MovieRecorder recorder(w, plan);
    QSignalSpy done(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QTest::qWait(600);
    recorder.stop();
    QCOMPARE(done.size(), 1);
    QCOMPARE(done.front().front().toString(), QString());
    // About 0.6 s at 20 frames/s (the machine may drop some), and the simulation kept running.
    const int frames = static_cast<int>(
        QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}, QDir::Files).size());
    QCOMPARE(frames, recorder.framesWritten());
    QVERIFY2(frames >= 3 && frames <= 14, qPrintable(QString::number(frames)));
    QVERIFY(w.running());
  }

  // The soak's finding: a pause, a single step or Run under a deterministic recording left it
  // waiting for ever; now the run towards the next frame goes on. A reset ends it with its frames.
  void deterministicRecordingOutlivesPauseAndEndsOnReset() {
    QTemporaryDir dir;
    MainWindow w;
    w.setSpeed(1.0, false);
    QCOMPARE(showScene(w, false, QSize(160, 100), dir, QStringLiteral("fall.json"), kFallingSphere, 1),
             QString());
    RecordingPlan plan;
    plan.movie.path = dir.filePath(QStringLiteral("frames"));
    plan.movie.format = MovieFormat::PngSequence;
    plan.movie.framesPerSecond = 10;
    plan.duration = 0.2;     // simulated seconds
    plan.slowMotion = 10.0;  // 20 frames, one every 1/100 s of simulated time
    {
      MovieRecorder recorder(w, plan);
      QSignalSpy done(&recorder, &MovieRecorder::finished);
      // The time the window showed when the recording ended (the frame it wrote last): read later,
      // the live frame would have run on for as long as this machine took to get there.
      double shownAtEnd = -1.0;
      connect(&recorder, &MovieRecorder::finished, &w, [&] {
        if (const SimulationFrame* f = w.currentFrame()) shownAtEnd = f->snapshot.time;
      });
      QCOMPARE(recorder.start(), QString());
      QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return recorder.framesWritten() >= 3; }));
      w.setRunning(false);  // the user pauses
      QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return recorder.framesWritten() >= 6; }));
      w.simulation().singleStep(1);
      QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return recorder.framesWritten() >= 9; }));
      w.setRunning(true);  // a Run: it goes on, but never past the next frame's time
      QVERIFY2(done.wait(30000) || done.size() == 1, "the recording did not finish");
      QCOMPARE(done.front().front().toString(), QString());
      QCOMPARE(recorder.framesWritten(), 20);
      // The last frame shows t = 19/100 s on any machine: the Run stopped at each frame's time (on
      // one busy core it had run on to 0.30 s by the time the recorder saw the frame).
      CLUMPLAB_VERIFY_LESS(0.19 - 1e-3, shownAtEnd);
      CLUMPLAB_VERIFY_LESS(shownAtEnd, 0.19 + 1e-3);
    }
    {
      plan.movie.path = dir.filePath(QStringLiteral("reset"));
      MovieRecorder recorder(w, plan);
      QSignalSpy done(&recorder, &MovieRecorder::finished);
      QCOMPARE(recorder.start(), QString());
      QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return recorder.framesWritten() >= 3; }));
      w.simulation().reset();
      QVERIFY2(done.wait(10000) || done.size() == 1, "a reset left the recording waiting");
      QVERIFY2(done.front().front().toString().contains(QStringLiteral("went back in time")),
               qPrintable(done.front().front().toString()));
      const int frames = recorder.framesWritten();
      QCOMPARE(static_cast<int>(
                   QDir(plan.movie.path).entryList({QStringLiteral("frame-*.png")}, QDir::Files).size()),
               frames);
    }
  }
};

QTEST_MAIN(TestGuiRecording)
#include "tst_gui_recording.moc"
