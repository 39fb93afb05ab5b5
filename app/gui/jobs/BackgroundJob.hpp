#pragma once
// Heavy work run off the GUI thread (the clump wizard's import, fill and inertia; the order
// analysis): the newest request wins. A start cancels the run in progress (its result is
// dropped) and, with a delay, waits for the controls to settle (debounce). The work returns what
// to do with its result, and that runs on the GUI thread only if the run was neither cancelled nor
// superseded, so a cancelled or replaced run leaves the previous result exactly as it was.
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>

#include "core/base/WorkProgress.hpp"
#include "gui/jobs/GuiThreadMailbox.hpp"

class QThread;

namespace clumplab::gui {

class BackgroundJob : public QObject {
  Q_OBJECT
 public:
  // Runs on a worker thread; returns the step that installs its result (run on the GUI thread).
  // Throws OperationCancelled when `progress` says so, or any std::exception with a readable message.
  using Work = std::function<std::function<void()>(const WorkProgress& progress)>;
  enum class State { Idle, Pending, Running, Succeeded, Failed, Cancelled };

  explicit BackgroundJob(QObject* parent = nullptr);
  ~BackgroundJob() override;  // cancels and waits for every worker it started

  // Runs `work` after `delayMs` of quiet (another start within the delay replaces it); a run in
  // progress is cancelled at once.
  void start(Work work, int delayMs = 0);
  // Cancels the pending or running work; the last result stays.
  void cancel();

  State state() const { return state_; }
  bool busy() const { return state_ == State::Pending || state_ == State::Running; }
  // Worker threads still running: a cancelled or replaced run's until its next check of the flag.
  int workers() const { return static_cast<int>(threads_.size()); }
  bool succeeded() const { return state_ == State::Succeeded; }
  QString error() const { return error_; }  // of the last failed run ("" otherwise)

 signals:
  void busyChanged(bool busy);
  void progress(double fraction, const QString& stage);
  void succeededNow();                     // the result was installed
  void failedNow(const QString& message);  // the previous result stays
  void cancelledNow();                     // the previous result stays

 private:
  void launch();
  void finish(std::uint64_t generation, State state, const std::function<void()>& install,
              const QString& message);
  void setState(State state);

  Work pending_;
  QTimer delay_;
  std::uint64_t generation_ = 0;  // of the newest run; older runs' results are dropped
  std::shared_ptr<std::atomic<bool>> cancelFlag_;
  QSet<QThread*> threads_;                                  // started and not yet finished
  GuiThreadMailbox* mailbox_ = new GuiThreadMailbox(this);  // the workers' progress and results
  State state_ = State::Idle;
  QString error_;
};

}  // namespace clumplab::gui
