#include "gui/wizard/JobStatus.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/jobs/BackgroundJob.hpp"

namespace clumplab::gui::wizard {

JobStatus::JobStatus(BackgroundJob& job, QWidget* parent) : QWidget(parent), job_(job) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* row = new QHBoxLayout;
  bar_ = new QProgressBar;
  bar_->setRange(0, 1000);
  bar_->setTextVisible(true);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelJob"));
  cancel_->setToolTip(tr("Stop this computation; the previous result stays"));
  row->addWidget(bar_, 1);
  row->addWidget(cancel_);
  layout->addLayout(row);
  text_ = new QLabel;
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(text_);

  connect(cancel_, &QPushButton::clicked, &job_, &BackgroundJob::cancel);
  connect(&job_, &BackgroundJob::progress, this, [this](double fraction, const QString& stage) {
    bar_->setValue(static_cast<int>(std::lround(1000.0 * std::clamp(fraction, 0.0, 1.0))));
    stage_ = stage;
    bar_->setFormat(stage.isEmpty() ? QStringLiteral("%p%") : stage + QStringLiteral(" · %p%"));
  });
  connect(&job_, &BackgroundJob::busyChanged, this, &JobStatus::refresh);
  connect(&job_, &BackgroundJob::succeededNow, this, &JobStatus::refresh);
  connect(&job_, &BackgroundJob::failedNow, this, &JobStatus::refresh);
  connect(&job_, &BackgroundJob::cancelledNow, this, &JobStatus::refresh);
  refresh();
}

void JobStatus::setSummary(const QString& text) {
  summary_ = text;
  refresh();
}

QString JobStatus::message() const {
  return job_.state() == BackgroundJob::State::Failed ? job_.error() : QString();
}

void JobStatus::refresh() {
  const bool busy = job_.busy();
  bar_->setVisible(busy);
  cancel_->setVisible(busy);
  if (busy && job_.state() == BackgroundJob::State::Pending) {
    bar_->setValue(0);
    bar_->setFormat(tr("waiting for the controls to settle"));
  }
  switch (job_.state()) {
    case BackgroundJob::State::Failed:
      text_->setStyleSheet(QStringLiteral("color: #c62828;"));
      text_->setText(job_.error());
      break;
    case BackgroundJob::State::Cancelled:
      text_->setStyleSheet(QString());
      text_->setText(tr("Cancelled: the previous result stays.") +
                     (summary_.isEmpty() ? QString() : QStringLiteral("\n") + summary_));
      break;
    default:
      text_->setStyleSheet(QString());
      text_->setText(busy ? QString() : summary_);
  }
  text_->setVisible(!text_->text().isEmpty());
}

}  // namespace clumplab::gui::wizard
