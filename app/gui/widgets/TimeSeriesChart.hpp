#pragma once
// A live chart of several quantities against simulated time (Qt Charts): keeps the whole history,
// shows a rolling window or the whole run decimated to the screen, optionally on a log scale,
// pauses, zooms (rubber band, right-click back), pins its axes, and exports CSV and PNG.
#include <QChartView>
#include <QElapsedTimer>
#include <QString>
#include <QStringList>
#include <vector>

class QLineSeries;
class QValueAxis;
class QLogValueAxis;

namespace clumplab::gui {

class TimeSeriesChart : public QChartView {
  Q_OBJECT
 public:
  // `names` and `units` label the series (legend and CSV header); `colors` may be empty.
  TimeSeriesChart(const QStringList& names, const QString& yTitle, QWidget* parent = nullptr);

  void clear();
  // One row: time [s] and one value per series. A time at or before the last one replaces the
  // history from that time on.
  void append(double time, const std::vector<double>& values);
  std::size_t pointCount() const { return times_.size(); }
  int seriesCount() const { return static_cast<int>(names_.size()); }
  const std::vector<double>& times() const { return times_; }
  const std::vector<double>& column(int series) const { return values_[static_cast<std::size_t>(series)]; }

  void setRollingWindow(double seconds);  // 0: the whole run
  double rollingWindow() const { return window_; }
  void setLogScale(bool on);  // plots |value| on a log axis
  bool logScale() const { return log_; }
  void setPaused(bool on);
  bool paused() const { return paused_; }
  void setPinned(bool on);  // axes keep their current range
  bool pinned() const { return pinned_; }
  void setSeriesVisible(int series, bool visible);
  void setTitle(const QString& title);
  // Names for a legend with little room (a movie's inset): used, in a column at the right, where the
  // full names would be elided in a row; where even these do not fit, the legend is left out rather
  // than shown as bare markers.
  void setShortNames(const QStringList& names);

  // Redraws from the history, at most every kRedrawIntervalMs unless `now` (call at display rate).
  void refresh(bool now = false);
  static constexpr int kRedrawIntervalMs = 100;
  bool exportCsv(const QString& path, QString* error) const;
  // The chart drawn at `size` (logical pixels) whatever its size on screen, with the latest
  // samples, even when hidden.
  QImage renderImage(QSize size);
  // The texts the last renderImage drew (tick labels, axis titles, legend): what a movie's viewer reads.
  const QStringList& renderedTexts() const { return renderedTexts_; }
  bool exportPng(const QString& path, QString* error);

 protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // Axis titles only where the chart has room for them beside its tick labels (a short chart drops
  // the time axis' title rather than eliding every label to "…").
  void fitDecorations(QSize size);

 private:
  QStringList names_;
  QStringList shortNames_;
  // The legend for a chart of `size` (renderImage): full names in a row, short ones in a column, or none.
  void fitLegend(QSize size);
  std::vector<double> times_;
  std::vector<std::vector<double>> values_;
  std::vector<QLineSeries*> series_;
  QValueAxis* xAxis_ = nullptr;
  QValueAxis* yAxis_ = nullptr;
  QLogValueAxis* yLogAxis_ = nullptr;
  double window_ = 0.0;
  bool log_ = false;
  bool paused_ = false;
  bool pinned_ = false;
  bool zoomed_ = false;
  bool stale_ = true;
  QStringList renderedTexts_;
  QElapsedTimer sinceRedraw_;
};

}  // namespace clumplab::gui
