#include "gui/jobs/BackgroundJob.hpp"

#include <QThread>
#include <chrono>
#include <exception>

#include "core/base/VectorState.hpp"

namespace clumplab::gui {

namespace {
constexpr auto kProgressInterval = std::chrono::milliseconds(40);  // at most 25 progress events a second
}

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {
  delay_.setSingleShot(true);
  connect(&delay_, &QTimer::timeout, this, &BackgroundJob::launch);
}

BackgroundJob::~BackgroundJob() {
  if (cancelFlag_) cancelFlag_->store(true);
  // Every stage of the work checks the flag within milliseconds (a mesh import cannot be stopped,
  // but it is bounded by the file's size).
  for (QThread* t : std::as_const(threads_)) {
    t->wait();
    delete t;
  }
}

void BackgroundJob::start(Work work, int delayMs) {
  if (cancelFlag_) cancelFlag_->store(true);
  ++generation_;  // the run in progress, if any, no longer counts
  pending_ = std::move(work);
  setState(State::Pending);
  delay_.start(std::max(0, delayMs));
}

void BackgroundJob::cancel() {
  if (!busy()) return;
  delay_.stop();
  pending_ = nullptr;
  if (cancelFlag_) cancelFlag_->store(true);
  ++generation_;
  error_.clear();
  setState(State::Cancelled);
  emit cancelledNow();
}

void BackgroundJob::launch() {
  if (!pending_) return;
  Work work = std::move(pending_);
  pending_ = nullptr;
  const std::uint64_t generation = ++generation_;
  cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
  setState(State::Running);
  emit progress(0.0, QString());

  QThread* thread = QThread::create([this, work = std::move(work), generation, flag = cancelFlag_] {
    clearUpperVectorState();  // the GUI thread's AVX state, inherited, would slow the work (VectorState.hpp)
    WorkProgress progress;
    progress.cancel = flag.get();
    auto last = std::chrono::steady_clock::now() - kProgressInterval;
    progress.callback = [this, generation, &last](double fraction, std::string_view stage) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < kProgressInterval && fraction < 1.0) return;
      last = now;
      mailbox_->post([this, generation, fraction,
                      text = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()))] {
        if (generation == generation_) emit this->progress(fraction, text);
      });
    };
    State state = State::Succeeded;
    std::function<void()> install;
    QString message;
    try {
      install = work(progress);
      if (flag->load()) state = State::Cancelled;
    } catch (const OperationCancelled&) {
      state = State::Cancelled;
    } catch (const std::exception& e) {
      state = State::Failed;
      message = QString::fromStdString(e.what());
    } catch (...) {
      state = State::Failed;
      message = tr("an unexpected error stopped the computation");
    }
    mailbox_->post([this, generation, state, install = std::move(install), message] {
      finish(generation, state, install, message);
    });
  });
  threads_.insert(thread);
  connect(thread, &QThread::finished, this, [this, thread] {
    threads_.remove(thread);
    thread->deleteLater();
  });
  thread->start(QThread::LowPriority);
}

void BackgroundJob::finish(std::uint64_t generation, State state, const std::function<void()>& install,
                           const QString& message) {
  if (generation != generation_) return;  // superseded or cancelled: the previous result stays
  if (state == State::Succeeded) {
    if (install) install();
    error_.clear();
    setState(State::Succeeded);
    emit succeededNow();
  } else if (state == State::Failed) {
    error_ = message;
    setState(State::Failed);
    emit failedNow(message);
  } else {
    error_.clear();
    setState(State::Cancelled);
    emit cancelledNow();
  }
}

void BackgroundJob::setState(State state) {
  const bool wasBusy = busy();
  state_ = state;
  if (wasBusy != busy()) emit busyChanged(busy());
}

}  // namespace clumplab::gui
