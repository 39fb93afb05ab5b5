#pragma once
// Calls from worker threads (background jobs, the simulation thread) run on the GUI thread. The
// call itself is handed over under a std::mutex; Qt's event queue only wakes the GUI thread, by
// method name, so none of our data travels through it. (Debian's Qt is not built with
// ThreadSanitizer and its event queue synchronises with futexes TSan cannot see: data captured in a
// functor posted with QMetaObject::invokeMethod was reported as racing with its reader. The mutex
// is the same ordering, made visible.)
#include <QObject>
#include <deque>
#include <functional>
#include <mutex>

namespace clumplab::gui {

class GuiThreadMailbox : public QObject {
  Q_OBJECT
 public:
  explicit GuiThreadMailbox(QObject* parent = nullptr);
  // Drops the calls not yet delivered, under the lock their posting took: a worker that posted and
  // then finished is ordered before this through the mutex (its thread's end is Qt's, which TSan
  // cannot see).
  ~GuiThreadMailbox() override;

  // The application's mailbox (a child of the QCoreApplication, so it outlives every window): for
  // calls that must still arrive, or be dropped safely, after their sender is gone. Call it first on
  // the GUI thread (objects that post later ask for it in their constructor).
  static GuiThreadMailbox* application();

  // Thread-safe: runs `call` on this object's thread, after every call posted before it.
  void post(std::function<void()> call);

 private:
  Q_INVOKABLE void deliver();

  std::mutex mutex_;
  std::deque<std::function<void()>> calls_;
};

}  // namespace clumplab::gui
