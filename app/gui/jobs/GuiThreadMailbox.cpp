#include "gui/jobs/GuiThreadMailbox.hpp"

#include <QCoreApplication>
#include <QMetaObject>
#include <utility>

namespace clumplab::gui {

GuiThreadMailbox::GuiThreadMailbox(QObject* parent) : QObject(parent) {}

GuiThreadMailbox::~GuiThreadMailbox() {
  std::deque<std::function<void()>> undelivered;
  {
    std::lock_guard lock(mutex_);
    undelivered.swap(calls_);
  }
}

GuiThreadMailbox* GuiThreadMailbox::application() {
  QCoreApplication* app = QCoreApplication::instance();
  if (app == nullptr) return nullptr;
  auto* mailbox = app->findChild<GuiThreadMailbox*>(QStringLiteral("clumplab-application-mailbox"),
                                                    Qt::FindDirectChildrenOnly);
  if (mailbox == nullptr) {
    mailbox = new GuiThreadMailbox(app);
    mailbox->setObjectName(QStringLiteral("clumplab-application-mailbox"));
  }
  return mailbox;
}

void GuiThreadMailbox::post(std::function<void()> call) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(call));
    wake = calls_.size() == 1;  // otherwise a wake-up is already queued and will take this call too
  }
  if (wake) QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

void GuiThreadMailbox::deliver() {
  std::deque<std::function<void()>> calls;
  {
    std::lock_guard lock(mutex_);
    calls.swap(calls_);
  }
  for (auto& call : calls) call();
}

}  // namespace clumplab::gui
