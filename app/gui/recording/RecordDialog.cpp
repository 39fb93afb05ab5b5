#include "gui/recording/RecordDialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>

namespace clumplab::gui {

namespace {
// Resolution choices: the view's own size (index 0), fixed sizes, and custom (the last).
struct Resolution {
  const char* name;
  QSize pixels;
};
const Resolution kResolutions[] = {
    {"720p", {1280, 720}}, {"1080p", {1920, 1080}}, {"Square 1080", {1080, 1080}}};
}  // namespace

RecordDialog::RecordDialog(QSize viewSize, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Record a movie"));
  const QSettings settings;
  auto* form = new QFormLayout(this);
  addFileRows(*form, settings);
  addFrameSizeRow(*form, viewSize, settings);
  addTimingRows(*form, settings);
  addOverlayRows(*form, settings);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    rememberPlan();
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
  connect(timing_, &QComboBox::currentIndexChanged, this, &RecordDialog::updateEnabled);
  connect(resolution_, &QComboBox::currentIndexChanged, this, &RecordDialog::updateEnabled);
  updateEnabled();
}

// The movie's file, with a browse button and the formats it may have.
void RecordDialog::addFileRows(QFormLayout& form, const QSettings& settings) {
  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit(
      settings.value(QStringLiteral("record/path"), QDir::home().filePath(QStringLiteral("clumplab.mp4")))
          .toString());
  path_->setMinimumWidth(320);
  fileRow->addWidget(path_, 1);
  auto* browseButton = new QPushButton(tr("Browse…"));
  connect(browseButton, &QPushButton::clicked, this, &RecordDialog::browse);
  fileRow->addWidget(browseButton);
  form.addRow(tr("File"), fileRow);
  auto* hint = new QLabel(tr(".mp4 (H.264), .webm (VP9), .gif, or a folder for PNG frames."));
  hint->setWordWrap(true);
  form.addRow(QString(), hint);
}

// The frame size: the view's, a preset or a custom one.
void RecordDialog::addFrameSizeRow(QFormLayout& form, QSize viewSize, const QSettings& settings) {
  auto* sizeRow = new QHBoxLayout;
  resolution_ = new QComboBox;
  resolution_->addItem(tr("The 3D view (%1×%2)").arg(viewSize.width() & ~1).arg(viewSize.height() & ~1));
  for (const Resolution& r : kResolutions) {
    resolution_->addItem(
        tr("%1 (%2×%3)").arg(QString::fromLatin1(r.name)).arg(r.pixels.width()).arg(r.pixels.height()));
  }
  resolution_->addItem(tr("Custom"));
  resolution_->setToolTip(tr("Other sizes than the view's are rendered offscreen with the same camera"));
  resolution_->setCurrentIndex(std::clamp(settings.value(QStringLiteral("record/resolution"), 0).toInt(), 0,
                                          resolution_->count() - 1));
  sizeRow->addWidget(resolution_, 1);
  width_ = new QSpinBox;
  height_ = new QSpinBox;
  for (QSpinBox* box : {width_, height_}) {
    box->setRange(16, 7680);
    box->setSingleStep(2);
    box->setSuffix(tr(" px"));
    sizeRow->addWidget(box);
  }
  height_->setMaximum(4320);
  width_->setValue(settings.value(QStringLiteral("record/width"), 1280).toInt());
  height_->setValue(settings.value(QStringLiteral("record/height"), 720).toInt());
  form.addRow(tr("Frame size"), sizeRow);
}

// Deterministic or real time, the replay's options, the duration, slow motion and frame rate.
void RecordDialog::addTimingRows(QFormLayout& form, const QSettings& settings) {
  timing_ = new QComboBox;
  timing_->addItem(tr("Deterministic: a fixed simulated time per frame"));
  timing_->addItem(tr("Real time: what the view shows, until Record is pressed again"));
  timing_->setCurrentIndex(settings.value(QStringLiteral("record/realTime"), false).toBool() ? 1 : 0);
  form.addRow(tr("Timing"), timing_);
  replayHint_ = new QLabel;
  replayHint_->setWordWrap(true);
  replayHint_->hide();
  form.addRow(QString(), replayHint_);
  everyFrame_ = new QCheckBox(tr("One video frame per trajectory frame"));
  everyFrame_->setChecked(true);
  everyFrame_->hide();
  connect(everyFrame_, &QCheckBox::toggled, this, &RecordDialog::updateEnabled);
  form.addRow(QString(), everyFrame_);
  duration_ = new QDoubleSpinBox;
  duration_->setRange(0.001, 1e6);
  duration_->setDecimals(3);
  duration_->setSuffix(tr(" s simulated"));
  duration_->setValue(settings.value(QStringLiteral("record/duration"), 5.0).toDouble());
  form.addRow(tr("Duration"), duration_);
  slowMotion_ = new QDoubleSpinBox;
  slowMotion_->setRange(0.001, 1e4);
  slowMotion_->setDecimals(3);
  slowMotion_->setSuffix(QStringLiteral("×"));
  slowMotion_->setValue(settings.value(QStringLiteral("record/slowMotion"), 1.0).toDouble());
  slowMotion_->setToolTip(tr("Video seconds per simulated second"));
  form.addRow(tr("Slow motion"), slowMotion_);
  fps_ = new QSpinBox;
  fps_->setRange(1, 240);
  fps_->setValue(settings.value(QStringLiteral("record/fps"), 30).toInt());
  fps_->setSuffix(tr(" frames/s"));
  form.addRow(tr("Frame rate"), fps_);
}

// What is drawn over the frames: the status overlay, a plot.
void RecordDialog::addOverlayRows(QFormLayout& form, const QSettings& settings) {
  status_ = new QCheckBox(tr("Keep the status overlay in the frames"));
  status_->setChecked(settings.value(QStringLiteral("record/status"), false).toBool());
  form.addRow(QString(), status_);
  plot_ = new QComboBox;
  plot_->setObjectName(QStringLiteral("plot in the frames"));
  plot_->addItem(tr("none"), static_cast<int>(RecordingPlan::Plot::None));
  plot_->addItem(tr("the energy plot"), static_cast<int>(RecordingPlan::Plot::Energy));
  plot_->addItem(tr("ω of the selected body (body frame)"), static_cast<int>(RecordingPlan::Plot::BodyOmega));
  // Saved as the plot's number (an older "true" reads as 1: the energy plot).
  plot_->setCurrentIndex(
      std::max(0, plot_->findData(settings.value(QStringLiteral("record/plot"), 0).toInt())));
  plot_->setToolTip(
      tr("Drawn in the bottom left corner as it grows: the chart the Energy panel shows, or the "
         "Inspector's body-frame ω (for free rotation, where the energies are flat)"));
  form.addRow(tr("Plot in the frames"), plot_);
}

// The plan's choices, offered again the next time.
void RecordDialog::rememberPlan() const {
  QSettings s;
  const RecordingPlan p = plan();
  s.setValue(QStringLiteral("record/path"), p.movie.path);
  s.setValue(QStringLiteral("record/realTime"), p.realTime);
  if (!replay_) s.setValue(QStringLiteral("record/duration"), p.duration);
  s.setValue(QStringLiteral("record/slowMotion"), p.slowMotion);
  s.setValue(QStringLiteral("record/fps"), p.movie.framesPerSecond);
  s.setValue(QStringLiteral("record/status"), p.statusOverlay);
  s.setValue(QStringLiteral("record/resolution"), resolution_->currentIndex());
  s.setValue(QStringLiteral("record/width"), width_->value());
  s.setValue(QStringLiteral("record/height"), height_->value());
  if (plot_->isEnabled()) s.setValue(QStringLiteral("record/plot"), static_cast<int>(p.plot));
}

void RecordDialog::browse() {
  const QString file = QFileDialog::getSaveFileName(this, tr("Record to"), path_->text(),
                                                    tr("Movies (*.mp4 *.webm *.gif);;All files (*)"));
  if (!file.isEmpty()) path_->setText(file);
}

void RecordDialog::setReplay(int frames, double seconds) {
  replay_ = true;
  setWindowTitle(tr("Record the replay"));
  timing_->setItemText(0, tr("Deterministic: frames taken from the trajectory"));
  timing_->setCurrentIndex(0);
  duration_->setValue(seconds);
  replayHint_->setText(
      tr("The replay holds %1 frames over %2 s of recorded time.").arg(frames).arg(seconds, 0, 'g', 4));
  replayHint_->show();
  everyFrame_->show();
  plot_->setCurrentIndex(0);
  plot_->setEnabled(false);
  plot_->setToolTip(tr("The plots belong to the live scene, not to the replay"));
  updateEnabled();
}

void RecordDialog::updateEnabled() {
  const bool deterministic = timing_->currentIndex() == 0;
  // A replay's duration is the replay's; its slow motion applies unless every frame is taken.
  duration_->setEnabled(deterministic && !replay_);
  slowMotion_->setEnabled(deterministic && (!replay_ || !everyFrame_->isChecked()));
  const bool custom = resolution_->currentIndex() == resolution_->count() - 1;
  width_->setVisible(custom);
  height_->setVisible(custom);
}

RecordingPlan RecordDialog::plan() const {
  RecordingPlan p;
  p.movie.path = path_->text().trimmed();
  p.movie.format = MovieSettings::formatFor(p.movie.path);
  p.movie.framesPerSecond = fps_->value();
  p.realTime = timing_->currentIndex() == 1;
  p.duration = duration_->value();
  p.slowMotion = slowMotion_->value();
  p.statusOverlay = status_->isChecked();
  p.plot = plot_->isEnabled() ? static_cast<RecordingPlan::Plot>(plot_->currentData().toInt())
                              : RecordingPlan::Plot::None;
  p.everyReplayFrame = !replay_ || everyFrame_->isChecked();
  const int choice = resolution_->currentIndex();
  if (choice == resolution_->count() - 1) {
    p.frameSize = QSize(width_->value(), height_->value());
  } else if (choice > 0) {
    p.frameSize = kResolutions[choice - 1].pixels;
  }
  return p;
}

}  // namespace clumplab::gui
