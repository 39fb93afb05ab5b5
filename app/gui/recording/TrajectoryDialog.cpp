#include "gui/recording/TrajectoryDialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace clumplab::gui {

namespace {
constexpr double kBytesPerBodyFrame = 112.0;  // core/io/Trajectory.hpp
}

TrajectoryDialog::TrajectoryDialog(std::size_t bodies, double timeStep, QWidget* parent)
    : QDialog(parent), bodies_(bodies), timeStep_(timeStep) {
  setWindowTitle(tr("Record a trajectory"));
  QSettings settings;
  auto* form = new QFormLayout(this);
  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit(
      settings
          .value(QStringLiteral("trajectory/path"), QDir::home().filePath(QStringLiteral("clumplab.cltraj")))
          .toString());
  path_->setMinimumWidth(320);
  fileRow->addWidget(path_, 1);
  auto* browseButton = new QPushButton(tr("Browse…"));
  connect(browseButton, &QPushButton::clicked, this, &TrajectoryDialog::browse);
  fileRow->addWidget(browseButton);
  form->addRow(tr("File"), fileRow);

  auto* interval = new QGridLayout;
  bySeconds_ = new QRadioButton;
  auto* bySteps = new QRadioButton(tr("one every"));
  // Frames per simulated second rather than an interval: 60 gives exactly 1/60 s.
  rate_ = new QDoubleSpinBox;
  rate_->setRange(1e-3, 1e7);
  rate_->setDecimals(3);
  rate_->setValue(settings.value(QStringLiteral("trajectory/rate"), 60.0).toDouble());
  rate_->setSuffix(tr(" per simulated second"));
  steps_ = new QSpinBox;
  steps_->setRange(1, 100'000'000);
  steps_->setSuffix(tr(" steps"));
  steps_->setValue(settings.value(QStringLiteral("trajectory/steps"), 100).toInt());
  interval->addWidget(bySeconds_, 0, 0);
  interval->addWidget(rate_, 0, 1);
  interval->addWidget(bySteps, 1, 0);
  interval->addWidget(steps_, 1, 1);
  (settings.value(QStringLiteral("trajectory/bySteps"), false).toBool() ? bySteps : bySeconds_)
      ->setChecked(true);
  form->addRow(tr("Frames"), interval);
  estimate_ = new QLabel;
  estimate_->setWordWrap(true);
  form->addRow(QString(), estimate_);
  auto* hint =
      new QLabel(tr("Poses and velocities exactly, with the scene embedded; replay with File → Open. "
                    "The file is complete when the recording stops."));
  hint->setWordWrap(true);
  QFont small = hint->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  hint->setFont(small);
  form->addRow(QString(), hint);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    QSettings s;
    const sim::TrajectoryPlan p = plan();
    s.setValue(QStringLiteral("trajectory/path"), QString::fromStdString(p.path));
    s.setValue(QStringLiteral("trajectory/rate"), rate_->value());
    s.setValue(QStringLiteral("trajectory/steps"), steps_->value());
    s.setValue(QStringLiteral("trajectory/bySteps"), p.everySteps > 0);
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
  connect(bySeconds_, &QRadioButton::toggled, this, &TrajectoryDialog::updateEstimate);
  connect(rate_, &QDoubleSpinBox::valueChanged, this, &TrajectoryDialog::updateEstimate);
  connect(steps_, &QSpinBox::valueChanged, this, &TrajectoryDialog::updateEstimate);
  updateEstimate();
}

void TrajectoryDialog::browse() {
  const QString file = QFileDialog::getSaveFileName(this, tr("Record the trajectory to"), path_->text(),
                                                    tr("Trajectories (*.cltraj)"));
  if (!file.isEmpty()) path_->setText(file);
}

void TrajectoryDialog::updateEstimate() {
  const bool bySeconds = bySeconds_->isChecked();
  rate_->setEnabled(bySeconds);
  steps_->setEnabled(!bySeconds);
  if (!(timeStep_ > 0.0)) return;
  // A frame lands on a step boundary: an interval shorter than the step records every step.
  const double secondsPerFrame = bySeconds ? std::max(1.0 / rate_->value(), timeStep_)
                                           : static_cast<double>(steps_->value()) * timeStep_;
  const double bytesPerSecond = kBytesPerBodyFrame * static_cast<double>(bodies_) / secondsPerFrame;
  estimate_->setText(tr("%1 frames per simulated second · about %2 per simulated second for %3 bodies")
                         .arg(1.0 / secondsPerFrame, 0, 'g', 4)
                         .arg(QLocale().formattedDataSize(static_cast<qint64>(std::llround(bytesPerSecond))))
                         .arg(bodies_));
}

sim::TrajectoryPlan TrajectoryDialog::plan() const {
  sim::TrajectoryPlan p;
  p.path = path_->text().trimmed().toStdString();
  if (bySeconds_->isChecked()) {
    p.everySeconds = 1.0 / rate_->value();
  } else {
    p.everySteps = static_cast<std::uint64_t>(steps_->value());
  }
  return p;
}

}  // namespace clumplab::gui
