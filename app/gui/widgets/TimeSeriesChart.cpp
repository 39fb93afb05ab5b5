#include "gui/widgets/TimeSeriesChart.hpp"

#include <QChart>
#include <QFile>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QSaveFile>
#include <QTextStream>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "gui/view/ImageFiles.hpp"
#include "gui/widgets/NiceTicks.hpp"

namespace clumplab::gui {

namespace {
constexpr std::size_t kMaxDrawnPoints = 1500;  // per series: about one per horizontal pixel

// Pixels a tick label needs along an axis: a label's width along x, about two text lines along y.
constexpr double kPixelsPerXTick = 90.0;
constexpr double kPixelsPerYTick = 34.0;

// Ticks every step of `ticks` from its lower end over [lo, hi], labelled in its format. Qt lays the ticks out
// on each change, so every intermediate state keeps their number bounded: the larger of the old and the new
// interval first, then the range, then the interval (a growing range under a tiny old interval would
// otherwise ask for billions of ticks for a moment).
void setDynamicTicks(QValueAxis& axis, double lo, double hi, const NiceTicks& ticks) {
  const bool wasDynamic = axis.tickType() == QValueAxis::TicksDynamic;
  axis.setTickInterval(wasDynamic ? std::max(axis.tickInterval(), ticks.step) : ticks.step);
  axis.setTickAnchor(ticks.lower);
  axis.setRange(lo, hi);
  axis.setTickInterval(ticks.step);
  axis.setTickType(QValueAxis::TicksDynamic);
  axis.setLabelFormat(QString::fromStdString(ticks.format));
}

// The axis on whole steps of `ticks`, a tick on each.
void setWholeStepTicks(QValueAxis& axis, const NiceTicks& ticks) {
  axis.setRange(ticks.lower, ticks.upper);
  axis.setTickType(QValueAxis::TicksFixed);
  axis.setTickCount(ticks.count);
  axis.setLabelFormat(QString::fromStdString(ticks.format));
}

// How many labelled ticks an axis `pixels` long holds (three at least: the ends and one between).
int ticksFitting(double pixels, double perTick) {
  return std::clamp(static_cast<int>(pixels / perTick) + 1, 3, 11);
}

const QColor kPalette[] = {QColor(0x4c, 0x9b, 0xe8), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
                           QColor(0xb0, 0x7a, 0xa1), QColor(0xed, 0xc9, 0x48), QColor(0xe1, 0x57, 0x59),
                           QColor(0xe8, 0xe8, 0xe8), QColor(0x76, 0xb7, 0xb2)};
}  // namespace

TimeSeriesChart::TimeSeriesChart(const QStringList& names, const QString& yTitle, QWidget* parent)
    : QChartView(parent), names_(names), values_(static_cast<std::size_t>(names.size())) {
  auto* c = new QChart;
  c->setTheme(QChart::ChartThemeDark);
  c->setBackgroundRoundness(0);
  c->setMargins(QMargins(4, 4, 4, 4));
  c->legend()->setAlignment(Qt::AlignBottom);
  c->legend()->setFont(QFont(font().family(), 8));
  xAxis_ = new QValueAxis;
  xAxis_->setTitleText(tr("time [s]"));
  xAxis_->setLabelFormat(QStringLiteral("%.3g"));
  yAxis_ = new QValueAxis;
  yAxis_->setTitleText(yTitle);
  yAxis_->setLabelFormat(QStringLiteral("%.3g"));
  yLogAxis_ = new QLogValueAxis;
  yLogAxis_->setTitleText(yTitle);
  yLogAxis_->setLabelFormat(QStringLiteral("%.0e"));
  yLogAxis_->setBase(10.0);
  c->addAxis(xAxis_, Qt::AlignBottom);
  c->addAxis(yAxis_, Qt::AlignLeft);
  for (int i = 0; i < names.size(); ++i) {
    auto* s = new QLineSeries;
    s->setName(names[i]);
    QPen pen(kPalette[i % 8]);
    pen.setWidthF(1.6);
    s->setPen(pen);
    c->addSeries(s);
    s->attachAxis(xAxis_);
    s->attachAxis(yAxis_);
    series_.push_back(s);
  }
  // Clicking a legend entry hides or shows its series.
  for (QLegendMarker* marker : c->legend()->markers()) {
    connect(marker, &QLegendMarker::clicked, this, [this, marker] {
      auto* s = qobject_cast<QLineSeries*>(marker->series());
      const auto it = std::find(series_.begin(), series_.end(), s);
      if (it != series_.end()) setSeriesVisible(static_cast<int>(it - series_.begin()), !s->isVisible());
    });
  }
  setChart(c);
  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::RectangleRubberBand);
  setMinimumHeight(160);
}

void TimeSeriesChart::setShortNames(const QStringList& names) {
  shortNames_ = names;
}

void TimeSeriesChart::fitLegend(QSize size) {
  QLegend* legend = chart()->legend();
  const QFontMetrics metrics(legend->font());
  constexpr int kMarker = 24;  // a marker and the spacing around an entry [px]
  const auto widest = [&](const QStringList& names) {
    int w = 0;
    for (const QString& n : names) w = std::max(w, metrics.horizontalAdvance(n));
    return w + kMarker;
  };
  // Qt gives every entry of a one-row legend the same width: the widest name decides. Where that
  // row does not fit, the short names go in a column at the right, if the height holds them.
  const int count = static_cast<int>(names_.size());
  const bool row = widest(names_) * count <= size.width() - 20;
  const bool haveShort = shortNames_.size() == names_.size();
  const bool column = !row && haveShort && (metrics.height() + 6) * count <= size.height() - 30 &&
                      widest(shortNames_) <= size.width() / 4;
  const QStringList& names = column ? shortNames_ : names_;
  for (std::size_t i = 0; i < series_.size(); ++i) series_[i]->setName(names[static_cast<qsizetype>(i)]);
  legend->setAlignment(column ? Qt::AlignRight : Qt::AlignBottom);
  legend->setVisible(row || column);
}

void TimeSeriesChart::setTitle(const QString& title) {
  chart()->setTitle(title);
}

void TimeSeriesChart::clear() {
  times_.clear();
  for (auto& v : values_) v.clear();
  zoomed_ = false;
  stale_ = true;
}

void TimeSeriesChart::append(double time, const std::vector<double>& values) {
  // Time went back (a resumed checkpoint): the history from there on is replaced.
  if (!times_.empty() && time <= times_.back()) {
    const auto keep =
        static_cast<std::size_t>(std::lower_bound(times_.begin(), times_.end(), time) - times_.begin());
    times_.resize(keep);
    for (auto& v : values_) v.resize(keep);
  }
  times_.push_back(time);
  for (std::size_t i = 0; i < values_.size(); ++i) {
    values_[i].push_back(i < values.size() ? values[i] : std::numeric_limits<double>::quiet_NaN());
  }
  stale_ = true;
}

void TimeSeriesChart::setRollingWindow(double seconds) {
  window_ = std::max(0.0, seconds);
  stale_ = true;
}

void TimeSeriesChart::setPaused(bool on) {
  paused_ = on;
  stale_ = true;
}

void TimeSeriesChart::setPinned(bool on) {
  pinned_ = on;
}

void TimeSeriesChart::setSeriesVisible(int index, bool visible) {
  QLineSeries* s = series_[static_cast<std::size_t>(index)];
  s->setVisible(visible);
  for (QLegendMarker* m : chart()->legend()->markers(s)) {
    m->setVisible(true);  // keep the legend entry so it can be clicked again
    QFont f = m->font();
    f.setStrikeOut(!visible);
    m->setFont(f);
    m->setLabelBrush(visible ? QBrush(QColor(230, 230, 230)) : QBrush(QColor(120, 120, 120)));
  }
  stale_ = true;
}

void TimeSeriesChart::setLogScale(bool on) {
  if (on == log_) return;
  log_ = on;
  QAbstractAxis* from = on ? static_cast<QAbstractAxis*>(yAxis_) : yLogAxis_;
  QAbstractAxis* to = on ? static_cast<QAbstractAxis*>(yLogAxis_) : yAxis_;
  chart()->removeAxis(from);
  chart()->addAxis(to, Qt::AlignLeft);
  for (QLineSeries* s : series_) s->attachAxis(to);
  stale_ = true;
}

void TimeSeriesChart::refresh(bool now) {
  if (!stale_ || paused_ || zoomed_) return;
  // Redrawing thousands of points is the GUI thread's costliest job: ten times a second is enough
  // for a plot to look live.
  if (!now && sinceRedraw_.isValid() && sinceRedraw_.elapsed() < kRedrawIntervalMs) return;
  sinceRedraw_.start();
  stale_ = false;
  fitDecorations(chart()->size().toSize());
  const QRectF area = chart()->plotArea();
  if (times_.empty()) {  // nothing yet: axes as the plot's size holds them, never elided
    for (QLineSeries* s : series_) s->clear();
    if (pinned_) return;
    const double span = window_ > 0.0 ? window_ : 1.0;
    const NiceTicks xTicks = niceTicks(0.0, span, ticksFitting(area.width(), kPixelsPerXTick));
    setDynamicTicks(*xAxis_, 0.0, span, xTicks);
    const NiceTicks yTicks = niceTicks(-1.0, 1.0, ticksFitting(area.height(), kPixelsPerYTick));
    setWholeStepTicks(*yAxis_, yTicks);
    return;
  }
  const double tEnd = times_.back();
  std::size_t first = 0;
  if (window_ > 0.0) {
    first = static_cast<std::size_t>(std::lower_bound(times_.begin(), times_.end(), tEnd - window_) -
                                     times_.begin());
  }
  const std::size_t count = times_.size() - first;
  const std::size_t stride = std::max<std::size_t>(1, (count + kMaxDrawnPoints - 1) / kMaxDrawnPoints);
  double yMin = std::numeric_limits<double>::infinity(), yMax = -yMin;
  for (std::size_t k = 0; k < series_.size(); ++k) {
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(count / stride + 2));
    const std::vector<double>& v = values_[k];
    for (std::size_t i = first; i < times_.size(); i += stride) {
      // Each drawn point keeps the extreme of its stride so spikes are never decimated away.
      double value = v[i];
      for (std::size_t j = i + 1; j < std::min(times_.size(), i + stride); ++j) {
        if (std::abs(v[j]) > std::abs(value)) value = v[j];
      }
      if (log_) value = std::abs(value);
      if (!std::isfinite(value) || (log_ && value <= 0.0)) continue;
      points.append(QPointF(times_[i], value));
      if (series_[k]->isVisible()) {
        yMin = std::min(yMin, value);
        yMax = std::max(yMax, value);
      }
    }
    series_[k]->replace(points);
  }
  if (pinned_) return;
  const double tStart = times_[first];
  // Ticks on nice numbers with true labels (NiceTicks.hpp), as many as the plot's size holds: a
  // short plot shows fewer labels instead of eliding them. Time follows the data exactly, its ticks
  // where the nice numbers fall; values get an axis on whole steps around them.
  // One instant only: a span of the rolling window (or a second) ahead, not of a nanosecond, whose
  // labels would need ten decimals.
  const double tHigh = tEnd > tStart ? tEnd : tStart + (window_ > 0.0 ? window_ : 1.0);
  const NiceTicks xTicks = niceTicks(tStart, tHigh, ticksFitting(area.width(), kPixelsPerXTick));
  setDynamicTicks(*xAxis_, tStart, tHigh, xTicks);
  if (!std::isfinite(yMin)) return;
  if (log_) {
    const double low = std::max(yMin, 1e-300) * 0.5, high = yMax * 2.0;
    // At most about six labelled powers: over many decades (round-off beside real errors) every
    // label would overlap and Qt would elide them all.
    const double decades = std::log10(high / low);
    yLogAxis_->setBase(decades > 6.0 ? std::pow(10.0, std::ceil(decades / 6.0)) : 10.0);
    yLogAxis_->setRange(low, high);
  } else {
    // The data's range with headroom (so that no curve runs along the frame), on whole steps, a
    // tick on each, as many as the height holds. Fixed ticks: Qt Charts 6.4's dynamic ticks on the
    // value axis hung in CartesianChartAxis::createItems when a run's energies jumped by orders of
    // magnitude (tst_gui_cim).
    const int yTickCount = ticksFitting(area.height(), kPixelsPerYTick);
    const ValueAxis padded = valueAxis(yMin, yMax, yTickCount);
    // The headroom never crosses zero: energies from 0 keep 0 as the axis' end (padded below it, a
    // 0…500 J plot three ticks high spanned −1000…1000).
    double lower = padded.lower, upper = padded.upper;
    if (yMax > yMin && yMin >= 0.0) lower = std::max(lower, 0.0);
    if (yMax > yMin && yMax <= 0.0) upper = std::min(upper, 0.0);
    setWholeStepTicks(*yAxis_, niceTicks(lower, upper, yTickCount));
  }
}

void TimeSeriesChart::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  fitDecorations(size());
  stale_ = true;  // tick counts follow the size
}

void TimeSeriesChart::fitDecorations(QSize size) {
  constexpr int kHeightForTimeTitle = 200;
  constexpr int kWidthForValueTitle = 260;
  constexpr int kBesidePlot = 90;  // the chart's height that is not the plot's: legend, time axis
  xAxis_->setTitleVisible(size.height() >= kHeightForTimeTitle);
  // The value axis' title runs along the plot's height: shown whole or not at all.
  const QFontMetrics metrics(yAxis_->titleFont());
  const bool valueTitle = size.width() >= kWidthForValueTitle &&
                          metrics.horizontalAdvance(yAxis_->titleText()) + 20 <= size.height() - kBesidePlot;
  yAxis_->setTitleVisible(valueTitle);
  yLogAxis_->setTitleVisible(valueTitle);
}

void TimeSeriesChart::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::RightButton) {
    // Right-click leaves the zoom and follows the data again.
    zoomed_ = false;
    stale_ = true;
    refresh(true);
    event->accept();
    return;
  }
  QChartView::mouseReleaseEvent(event);
  if (event->button() == Qt::LeftButton) zoomed_ = true;
}

bool TimeSeriesChart::exportCsv(const QString& path, QString* error) const {
  QSaveFile file(path);  // written to a temporary file, renamed on commit
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("%1: cannot write: %2").arg(path, file.errorString());
    return false;
  }
  QTextStream out(&file);
  out << "time";
  for (const QString& n : names_) out << ',' << QString(n).replace(QLatin1Char(','), QLatin1Char(' '));
  out << '\n';
  for (std::size_t i = 0; i < times_.size(); ++i) {
    out << QString::number(times_[i], 'g', 17);
    for (const auto& v : values_) out << ',' << QString::number(v[i], 'g', 17);
    out << '\n';
  }
  out.flush();
  if (!file.commit()) {
    if (error) *error = tr("%1: cannot write: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

QImage TimeSeriesChart::renderImage(QSize size) {
  if (size.isEmpty()) return {};
  QChart* c = chart();
  const QSizeF onScreen = c->size();
  c->resize(size);
  fitDecorations(size);
  fitLegend(size);
  if (c->layout() != nullptr) c->layout()->activate();  // the plot area of this size, now
  // Ticks for this size (as many labels as it holds), and again for the screen afterwards.
  stale_ = true;
  refresh(true);
  // The axes' label items follow new ticks at the next layout only: laid out again, or the first
  // frames would show the on-screen chart's many labels squeezed into this size, elided to "…".
  if (c->layout() != nullptr) {
    c->layout()->invalidate();
    c->layout()->activate();
  }
  renderedTexts_.clear();
  for (const QGraphicsItem* item : scene()->items()) {
    if (const auto* text = dynamic_cast<const QGraphicsTextItem*>(item); text && text->isVisible())
      renderedTexts_ << text->toPlainText();
  }
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRectF(c->pos(), QSizeF(size)));
  }
  c->resize(onScreen);
  fitDecorations(this->size());
  for (std::size_t i = 0; i < series_.size(); ++i) series_[i]->setName(names_[static_cast<qsizetype>(i)]);
  chart()->legend()->setAlignment(Qt::AlignBottom);
  chart()->legend()->setVisible(true);
  stale_ = true;
  return image;
}

bool TimeSeriesChart::exportPng(const QString& path, QString* error) {
  const QPixmap image = grab();
  if (!saveImageAtomically(image, path)) {
    if (error) *error = tr("%1: cannot write the PNG").arg(path);
    return false;
  }
  return true;
}

}  // namespace clumplab::gui
