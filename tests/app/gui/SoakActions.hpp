#pragma once
// The soak's random user actions on the real main window (tst_soak): parameter edits typed into the
// Parameters panel, integrator and speed choices, spawns, mouse drags of bodies in the 3D view,
// camera moves, run / pause / step / step back / reset, undo / redo, the example scenes opened in
// turn, movies recorded through the Record dialog and directly, screenshots; each one time-bounded,
// modal dialogs answered. What the soak measures between them is tst_soak's.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLineEdit>
#include <QMap>
#include <QMessageBox>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "ProcessProbe.hpp"
#include "TestPaths.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/RecordDialog.hpp"
#include "gui/view/ImageFiles.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/window/MainWindow.hpp"

namespace clumplab::gui::test {

using sim::SimulationFrame;

#if CLUMPLAB_UNDER_TSAN
// ThreadSanitizer does not support fork in a threaded program (ffmpeg, ffprobe): the soak runs
// without movies.
inline constexpr bool kCanFork = false;
#else
inline constexpr bool kCanFork = true;
#endif
inline constexpr int kActionTimeoutMs = 60'000;  // one action, including a scene load or a dialog

inline QString scenesDir() {
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

inline QAction* findAction(QWidget& w, const QString& text) {
  for (QAction* a : w.findChildren<QAction*>()) {
    QString t = a->text();
    t.remove(QLatin1Char('&'));
    if (t == text) return a;
  }
  return nullptr;
}

// A soak run's random user actions: the window, the seeded generator, what was done. tst_soak's Soak
// adds the memory samples and the reference state.
class SoakActions {
 public:
  SoakActions(MainWindow& w, std::uint64_t seed, const QString& movieDir)
      : w_(w), rng_(seed), movieDir_(movieDir) {
    for (const QString& f : QDir(scenesDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
      scenes_ << QDir(scenesDir()).filePath(f);
    scenes_ << QString();  // the built-in default scene
    // Modal dialogs (errors of a recording or a switch, the Record dialog) must not stop the run:
    // the Record dialog is filled in and accepted, message boxes are read and closed.
    dismisser_.setInterval(150);
    QObject::connect(&dismisser_, &QTimer::timeout, [this] { answerModal(); });
    dismisser_.start();
  }

  QMap<QString, long> counts;
  QStringList messages;  // texts of the message boxes closed
  // CLUMPLAB_SOAK_VERBOSE=1: every action as done and every reference visit, with the memory.
  const bool verbose = qEnvironmentVariableIntValue("CLUMPLAB_SOAK_VERBOSE") != 0;
  QStringList movies;  // movie files and PNG folders recorded
  long actions = 0;
  int refusedOpens = 0;    // scenes that did not fit the sphere or 2D switch (the error names the file)
  int longRecordings = 0;  // deterministic recordings still going after a minute, stopped by hand
  QMap<QString, int> opened_;
  int screenshots_ = 0;

  // The last actions with what they did, for the message of a failure.
  QString recentActions() const { return log_.join(QLatin1Char('\n')); }

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
      std::printf("%s heap %.1f MiB, RSS %.1f MiB, peak RSS so far %.1f MiB\n", qPrintable(log_.back()),
                  clumplab::test::heapInUseMiB(), clumplab::test::residentMiB(),
                  clumplab::test::peakResidentMiB());
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

 protected:
  void pauseFor(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
      w_.tick();
      QThread::msleep(2);
    }
  }

  MainWindow& w_;
  QStringList scenes_;

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double uniformReal(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  template <class Fn>
  void repeat(int n, Fn fn) {
    for (int i = 0; i < n; ++i) fn();
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

  std::mt19937_64 rng_;
  QString movieDir_;
  QTimer dismisser_;
  QString nextMovie_;
  QString note_;     // what the current action did
  QStringList log_;  // the last actions
  QElapsedTimer recordingClock_;
  bool deterministic_ = false;  // the recording in progress is
};

}  // namespace clumplab::gui::test
