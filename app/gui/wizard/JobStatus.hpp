#pragma once
// A page's view of its background job: a progress bar with the stage, a Cancel button while it
// runs, and the last failure in readable words (red, selectable).
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace clumplab::gui {
class BackgroundJob;
}

namespace clumplab::gui::wizard {

class JobStatus : public QWidget {
  Q_OBJECT
 public:
  JobStatus(BackgroundJob& job, QWidget* parent = nullptr);
  // Text shown while idle after a success (a summary of the result).
  void setSummary(const QString& text);
  QPushButton* cancelButton() const { return cancel_; }
  QString message() const;  // the error shown ("" when none)
  QString summary() const { return summary_; }

 private:
  void refresh();

  BackgroundJob& job_;
  QProgressBar* bar_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QLabel* text_ = nullptr;
  QString summary_;
  QString stage_;
};

}  // namespace clumplab::gui::wizard
