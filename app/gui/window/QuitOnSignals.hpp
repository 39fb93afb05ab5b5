#pragma once
// SIGTERM, SIGINT and SIGHUP (a logout, `kill`, Ctrl+C in the terminal) close the app as File > Quit
// does: the windows close, the simulation thread joins, a trajectory being recorded is completed and
// the autosave is removed, and the exit status is 0. Without this the default action ends the process
// at once, as a crash would. The handler only writes a byte to a socket pair (async-signal-safe); the
// event loop reads it and closes the windows.
#include <QObject>

class QSocketNotifier;

namespace clumplab::gui {

class QuitOnSignals : public QObject {
  Q_OBJECT
 public:
  // Installs the handlers; one object per process (a second one is refused with a message).
  explicit QuitOnSignals(QObject* parent = nullptr);
  ~QuitOnSignals() override;  // restores the default actions
  QuitOnSignals(const QuitOnSignals&) = delete;
  QuitOnSignals& operator=(const QuitOnSignals&) = delete;

  // False when the handlers could not be installed (the reason went to stderr).
  bool installed() const { return notifier_ != nullptr; }
  // The signal that asked the app to quit (0 if none has).
  int received() const { return received_; }

 signals:
  void quitRequested(int signal);

 private:
  void onSignal();
  QSocketNotifier* notifier_ = nullptr;
  int received_ = 0;
};

}  // namespace clumplab::gui
