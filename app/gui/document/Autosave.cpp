#include "gui/document/Autosave.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>

namespace clumplab::gui {

namespace {
QString sourceFileOf(const QString& autosave) {
  return autosave + QStringLiteral(".source");
}
QString lockFileOf(const QString& autosave) {
  return autosave + QStringLiteral(".lock");
}
}  // namespace

Autosave::Autosave(QString folder, SaveFunction save, int intervalSeconds, QObject* parent)
    : QObject(parent), folder_(std::move(folder)), save_(std::move(save)) {
  QDir().mkpath(folder_);
  path_ = QDir(folder_).filePath(QStringLiteral("session-%1-%2.json")
                                     .arg(QCoreApplication::applicationPid())
                                     .arg(QDateTime::currentMSecsSinceEpoch()));
  auto lock = std::make_unique<QLockFile>(lockFileOf(path_));
  lock->setStaleLockTime(0);                      // only a dead owner makes it stale, never its age
  if (lock->tryLock(0)) lock_ = std::move(lock);  // else: a read-only folder; no autosave, no crash
  connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
  setIntervalSeconds(intervalSeconds);
}

Autosave::~Autosave() {
  timer_.stop();
  if (!lock_) return;
  QFile::remove(path_);
  QFile::remove(sourceFileOf(path_));
  lock_->unlock();
}

void Autosave::setIntervalSeconds(int seconds) {
  if (seconds > 0 && lock_) {
    timer_.start(seconds * 1000);
  } else {
    timer_.stop();
  }
}

void Autosave::setSource(const QString& scenePath) {
  if (!lock_) return;
  QSaveFile f(sourceFileOf(path_));  // whole or not at all, like every other write
  if (f.open(QIODevice::WriteOnly)) {
    const QString source = scenePath.isEmpty() ? QString() : QFileInfo(scenePath).absoluteFilePath();
    f.write(source.toUtf8());
    f.commit();
  }
}

void Autosave::saveNow() {
  if (!lock_ || saving_) return;  // one write at a time: a slow disk must not queue them up
  saving_ = true;
  QPointer<Autosave> self(this);
  save_(path_.toStdString(), [self, mailbox = mailbox_](const std::string& error) {
    // Called on the simulation thread: handed to the GUI thread through the application's mailbox,
    // which outlives every window, and dropped there if this object is gone by then.
    if (mailbox == nullptr) return;
    mailbox->post([self, error] {
      Autosave* autosave = self.data();
      if (autosave == nullptr) return;
      autosave->saving_ = false;
      if (error.empty()) {
        emit autosave->saved(autosave->path_);
      } else {
        emit autosave->failed(QString::fromStdString(error));
      }
    });
  });
}

std::vector<Autosave::Orphan> Autosave::orphans(const QString& folder) {
  std::vector<Orphan> found;
  const QDir dir(folder);
  for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("session-*.json")}, QDir::Files)) {
    const QString path = info.absoluteFilePath();
    QLockFile lock(lockFileOf(path));
    lock.setStaleLockTime(0);
    // Locked by a live session (this one, or another window): not an orphan.
    if (!lock.tryLock(0)) continue;
    lock.unlock();  // removes the stale lock file; the autosave itself stays until restored or discarded
    Orphan o;
    o.path = path;
    o.saved = info.lastModified();
    QFile source(sourceFileOf(path));
    if (source.open(QIODevice::ReadOnly)) o.source = QString::fromUtf8(source.readAll()).trimmed();
    found.push_back(o);
  }
  std::sort(found.begin(), found.end(), [](const Orphan& a, const Orphan& b) { return a.saved > b.saved; });
  return found;
}

void Autosave::discard(const Orphan& orphan) {
  QFile::remove(orphan.path);
  QFile::remove(sourceFileOf(orphan.path));
  QFile::remove(lockFileOf(orphan.path));
}

QString Autosave::defaultFolder() {
  const QByteArray env = qgetenv("CLUMPLAB_AUTOSAVE_DIR");
  if (!env.isEmpty()) return QString::fromLocal8Bit(env);
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave");
}

int Autosave::defaultIntervalSeconds() {
  bool ok = false;
  const int seconds = qEnvironmentVariableIntValue("CLUMPLAB_AUTOSAVE_SECONDS", &ok);
  return ok && seconds >= 0 ? seconds : 60;
}

}  // namespace clumplab::gui
