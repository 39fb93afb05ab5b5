#include "gui/window/QuitOnSignals.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <QApplication>
#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace clumplab::gui {

namespace {
constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
int gSocket[2] = {-1, -1};  // [0] written by the handler, [1] read by the event loop

extern "C" void onTerminationSignal(int signal) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] const ssize_t n = ::write(gSocket[0], &byte, 1);  // a full socket: one is pending
  errno = saved;
}
}  // namespace

QuitOnSignals::QuitOnSignals(QObject* parent) : QObject(parent) {
  if (gSocket[0] >= 0) {
    std::fprintf(stderr, "clumplab: the quit-on-signal handlers are already installed\n");
    return;
  }
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, gSocket) != 0) {
    std::fprintf(stderr,
                 "clumplab: no socket pair for the signal handlers (%s): SIGTERM ends the app at once\n",
                 std::strerror(errno));
    gSocket[0] = gSocket[1] = -1;
    return;
  }
  notifier_ = new QSocketNotifier(gSocket[1], QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &QuitOnSignals::onSignal);
  struct sigaction action {};
  action.sa_handler = onTerminationSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int s : kSignals) ::sigaction(s, &action, nullptr);
}

QuitOnSignals::~QuitOnSignals() {
  if (!notifier_) return;
  for (const int s : kSignals) std::signal(s, SIG_DFL);
  delete notifier_;
  ::close(gSocket[0]);
  ::close(gSocket[1]);
  gSocket[0] = gSocket[1] = -1;
}

void QuitOnSignals::onSignal() {
  unsigned char byte = 0;
  while (::read(gSocket[1], &byte, 1) == 1) received_ = byte;
  emit quitRequested(received_);
  // As File > Quit: each window's closeEvent runs (MainWindow joins its simulation thread there); a
  // window that refuses to close keeps the app running, as it would for the user.
  QApplication::closeAllWindows();
}

}  // namespace clumplab::gui
