#pragma once
// Scripted runs (--quit, --screenshot, --record, --report) neither read nor write the user's
// settings: they start from an empty profile in a private folder, removed when the run ends. A
// speed, window size or dock layout saved by an earlier session never changes a scripted run, and
// a scripted run never changes the next interactive start.
#include <QTemporaryDir>

namespace clumplab::gui {

class PrivateSettings {
 public:
  // Every QSettings made from now on lives in the private folder; make this before the first one.
  PrivateSettings();
  PrivateSettings(const PrivateSettings&) = delete;
  PrivateSettings& operator=(const PrivateSettings&) = delete;

  bool valid() const { return folder_.isValid(); }
  QString path() const { return folder_.path(); }

 private:
  QTemporaryDir folder_;
};

}  // namespace clumplab::gui
