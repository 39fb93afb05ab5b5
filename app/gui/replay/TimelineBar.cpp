#include "gui/replay/TimelineBar.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSlider>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace clumplab::gui {

namespace {
enum class Glyph { First, Previous, Play, Pause, Next, Last, Loop };

// Media glyphs drawn for the dark bar (the style's own icons are drawn for light backgrounds).
QIcon glyphIcon(Glyph glyph) {
  constexpr int kSize = 40;  // drawn at 2x, shown at 20 px
  QPixmap pixmap(kSize, kSize);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(226, 231, 240));
  const auto triangle = [&](double left, double right, bool pointsRight) {
    QPainterPath path;
    if (pointsRight) {
      path.moveTo(left, 10);
      path.lineTo(right, 20);
      path.lineTo(left, 30);
    } else {
      path.moveTo(right, 10);
      path.lineTo(left, 20);
      path.lineTo(right, 30);
    }
    path.closeSubpath();
    p.drawPath(path);
  };
  const auto bar = [&](double left) { p.drawRoundedRect(QRectF(left, 10, 4, 20), 1, 1); };
  switch (glyph) {
    case Glyph::First:
      bar(8);
      triangle(12, 22, false);
      triangle(21, 31, false);
      break;
    case Glyph::Previous:
      bar(11);
      triangle(15, 29, false);
      break;
    case Glyph::Play:
      triangle(12, 31, true);
      break;
    case Glyph::Pause:
      p.drawRoundedRect(QRectF(11, 10, 6, 20), 1.5, 1.5);
      p.drawRoundedRect(QRectF(23, 10, 6, 20), 1.5, 1.5);
      break;
    case Glyph::Next:
      triangle(11, 25, true);
      bar(25);
      break;
    case Glyph::Last:
      triangle(9, 19, true);
      triangle(18, 28, true);
      bar(28);
      break;
    case Glyph::Loop: {
      p.setBrush(Qt::NoBrush);
      p.setPen(QPen(QColor(226, 231, 240), 3.2, Qt::SolidLine, Qt::RoundCap));
      p.drawArc(QRectF(9, 9, 22, 22), 100 * 16, 290 * 16);
      p.setPen(Qt::NoPen);
      p.setBrush(QColor(226, 231, 240));
      QPainterPath head;  // the arrow's head at the arc's start (top)
      head.moveTo(15, 4);
      head.lineTo(23, 9.5);
      head.lineTo(15, 15);
      head.closeSubpath();
      p.drawPath(head);
      break;
    }
  }
  p.end();
  pixmap.setDevicePixelRatio(2.0);
  return QIcon(pixmap);
}

const char* kStyle = R"(
clumplab--gui--TimelineBar { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #252932, stop:1 #1b1e25);
                             border-top: 1px solid #363c48; }
QLabel { color: #d7dce6; }
QLabel#replayBadge { color: #10131a; background: #f0b429; border-radius: 3px; padding: 1px 6px;
                     font-weight: 700; font-size: 8.5pt; }
QLabel#replayName { color: #f1f4f9; font-weight: 600; }
QLabel#timeLabel { color: #f1f4f9; font-family: monospace; font-size: 10pt; }
QLabel#frameLabel { color: #98a2b3; font-family: monospace; }
QToolButton { border: none; border-radius: 5px; padding: 3px; }
QToolButton:hover { background: #343a47; }
QToolButton:pressed { background: #404757; }
QToolButton:checked { background: #2c4f7c; }
QToolButton#playButton { background: #3d7ff0; border-radius: 15px; padding: 5px; }
QToolButton#playButton:hover { background: #5290f5; }
QSlider::groove:horizontal { height: 6px; background: #3a404d; border-radius: 3px; }
QSlider::sub-page:horizontal { background: #3d7ff0; border-radius: 3px; }
QSlider::handle:horizontal { background: #f4f6fa; border: 1px solid #1b1e25; width: 14px; margin: -5px 0;
                             border-radius: 7px; }
QSlider::handle:horizontal:hover { background: #ffffff; border: 2px solid #3d7ff0; }
QComboBox { color: #e6e9ef; background: #2b303b; border: 1px solid #3e4552; border-radius: 4px;
            padding: 2px 8px; min-width: 52px; }
QComboBox QAbstractItemView { color: #e6e9ef; background: #2b303b; selection-background-color: #3d7ff0; }
QPushButton#leaveButton { color: #f1f4f9; background: #353b48; border: 1px solid #4a5263; border-radius: 5px;
                          padding: 4px 12px; }
QPushButton#leaveButton:hover { background: #414858; }
)";

QWidget* separator() {
  auto* line = new QWidget;
  line->setFixedSize(1, 22);
  line->setStyleSheet(QStringLiteral("background: #3a404d;"));
  return line;
}
}  // namespace

TimelineBar::TimelineBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("timelineBar"));
  setAttribute(Qt::WA_StyledBackground);
  setStyleSheet(QString::fromLatin1(kStyle));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(12, 7, 12, 7);
  row->setSpacing(6);

  auto* leave = new QPushButton(tr("Back to the live scene"));
  leave->setObjectName(QStringLiteral("leaveButton"));
  leave->setToolTip(tr("Leave the replay; the live scene is as you left it (Esc)"));
  leave->setCursor(Qt::PointingHandCursor);
  connect(leave, &QPushButton::clicked, this, &TimelineBar::leaveRequested);
  row->addWidget(leave);
  auto* badge = new QLabel(tr("REPLAY"));
  badge->setObjectName(QStringLiteral("replayBadge"));
  row->addSpacing(4);
  row->addWidget(badge);
  name_ = new QLabel;
  name_->setObjectName(QStringLiteral("replayName"));
  name_->setMaximumWidth(220);
  row->addWidget(name_);
  row->addWidget(separator());

  auto* first = button(tr("First frame (Home)"), static_cast<int>(Glyph::First));
  connect(first, &QToolButton::clicked, this, [this] { emit seekRequested(0); });
  auto* previous = button(tr("Previous frame (←)"), static_cast<int>(Glyph::Previous));
  connect(previous, &QToolButton::clicked, this, [this] { emit stepRequested(-1); });
  play_ = button(tr("Play / pause (Space)"), static_cast<int>(Glyph::Play));
  play_->setObjectName(QStringLiteral("playButton"));
  play_->setCheckable(true);
  play_->setIconSize(QSize(20, 20));
  connect(play_, &QToolButton::toggled, this, [this](bool on) {
    showPlaying(on);
    emit playToggled(on);
  });
  auto* next = button(tr("Next frame (→)"), static_cast<int>(Glyph::Next));
  connect(next, &QToolButton::clicked, this, [this] { emit stepRequested(+1); });
  auto* last = button(tr("Last frame (End)"), static_cast<int>(Glyph::Last));
  connect(last, &QToolButton::clicked, this, [this] { emit seekRequested(std::max(0, frames_ - 1)); });
  for (QToolButton* b : {first, previous, play_, next, last}) row->addWidget(b);
  row->addSpacing(6);

  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName(QStringLiteral("timelineSlider"));
  slider_->setMinimumWidth(160);
  slider_->setFocusPolicy(Qt::NoFocus);  // arrows belong to the window's frame steps
  connect(slider_, &QSlider::valueChanged, this, &TimelineBar::seekRequested);  // the user's moves only
  row->addWidget(slider_, 1);
  row->addSpacing(6);
  time_ = new QLabel;
  time_->setObjectName(QStringLiteral("timeLabel"));
  row->addWidget(time_);
  frame_ = new QLabel;
  frame_->setObjectName(QStringLiteral("frameLabel"));
  row->addWidget(frame_);
  row->addWidget(separator());

  speed_ = new QComboBox;
  speed_->setToolTip(tr("Play speed: recorded seconds per second"));
  speed_->setFocusPolicy(Qt::NoFocus);
  for (double s : kSpeeds) speed_->addItem(QString::number(s) + QStringLiteral("×"), s);
  speed_->setCurrentIndex(3);
  connect(speed_, &QComboBox::currentIndexChanged, this, [this] { emit speedChanged(speed()); });
  row->addWidget(speed_);
  loop_ = button(tr("Loop: start again at the end"), static_cast<int>(Glyph::Loop));
  loop_->setCheckable(true);
  connect(loop_, &QToolButton::toggled, this, &TimelineBar::loopToggled);
  row->addWidget(loop_);
}

QToolButton* TimelineBar::button(const QString& tip, int glyph) {
  auto* b = new QToolButton;
  b->setIcon(glyphIcon(static_cast<Glyph>(glyph)));
  b->setIconSize(QSize(18, 18));
  b->setToolTip(tip);
  b->setFocusPolicy(Qt::NoFocus);
  b->setCursor(Qt::PointingHandCursor);
  b->setAutoRaise(true);
  return b;
}

void TimelineBar::setTrajectory(const QString& name, int frames, double startTime, double endTime) {
  frames_ = frames;
  startTime_ = startTime;
  endTime_ = endTime;
  name_->setText(fontMetrics().elidedText(name, Qt::ElideMiddle, name_->maximumWidth()));
  name_->setToolTip(name);
  const QSignalBlocker block(slider_);
  slider_->setRange(0, std::max(0, frames - 1));
  slider_->setPageStep(std::max(1, frames / 20));
}

void TimelineBar::showFrame(int frame, double time) {
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(frame);
  }
  // Digits enough to tell frames apart, at least milliseconds.
  const double spacing = frames_ > 1 ? (endTime_ - startTime_) / (frames_ - 1) : 1.0;
  const int digits = std::clamp(static_cast<int>(std::ceil(-std::log10(std::max(spacing, 1e-9)))) + 1, 3, 7);
  time_->setText(QStringLiteral("%1 / %2 s").arg(time, 0, 'f', digits).arg(endTime_, 0, 'f', digits));
  const int width = static_cast<int>(QString::number(frames_).size());
  frame_->setText(tr("frame %1 / %2").arg(frame + 1, width).arg(frames_));
}

void TimelineBar::showPlaying(bool playing) {
  {
    const QSignalBlocker block(play_);
    play_->setChecked(playing);
  }
  play_->setIcon(glyphIcon(playing ? Glyph::Pause : Glyph::Play));
  play_->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

double TimelineBar::speed() const {
  return speed_->currentData().toDouble();
}

void TimelineBar::setSpeed(double speed) {
  int best = 0;
  for (int i = 0; i < speed_->count(); ++i) {
    if (std::abs(std::log(speed_->itemData(i).toDouble() / speed)) <
        std::abs(std::log(speed_->itemData(best).toDouble() / speed)))
      best = i;
  }
  speed_->setCurrentIndex(best);
}

bool TimelineBar::loop() const {
  return loop_->isChecked();
}

void TimelineBar::setLoop(bool on) {
  loop_->setChecked(on);
}

}  // namespace clumplab::gui
