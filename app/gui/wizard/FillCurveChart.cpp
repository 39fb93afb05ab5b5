#include "gui/wizard/FillCurveChart.hpp"

#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace clumplab::gui::wizard {

FillCurveChart::FillCurveChart(QWidget* parent) : QChartView(parent) {
  setObjectName(QStringLiteral("fillCurve"));
  auto* c = new QChart;
  c->setTheme(QChart::ChartThemeLight);
  c->setBackgroundRoundness(0);
  c->setMargins(QMargins(2, 2, 2, 2));
  c->legend()->setAlignment(Qt::AlignBottom);
  c->legend()->setFont(QFont(font().family(), 8));
  greedy_ = new QLineSeries;
  greedy_->setName(tr("greedy"));
  refined_ = new QScatterSeries;
  refined_->setName(tr("refined"));
  refined_->setMarkerSize(7.0);
  chosenPoint_ = new QScatterSeries;
  chosenPoint_->setName(tr("chosen"));
  chosenPoint_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  chosenPoint_->setMarkerSize(12.0);
  reach_ = new QLineSeries;
  reach_->setName(tr("reach out"));
  target_ = new QLineSeries;
  target_->setName(tr("target"));
  for (QAbstractSeries* s :
       std::initializer_list<QAbstractSeries*>{greedy_, target_, reach_, refined_, chosenPoint_})
    c->addSeries(s);
  greedy_->setPen(QPen(QColor(0x4a, 0x7d, 0xb8), 1.5));
  refined_->setColor(QColor(0x1f, 0x4e, 0x8c));
  refined_->setBorderColor(QColor(0x1f, 0x4e, 0x8c));
  chosenPoint_->setColor(QColor(0xd9, 0x48, 0x1c));
  chosenPoint_->setBorderColor(QColor(0x80, 0x20, 0x08));
  reach_->setPen(QPen(QColor(0x5a, 0x9e, 0x4b), 1.5));
  target_->setPen(QPen(QColor(0x70, 0x70, 0x70), 1.0, Qt::DashLine));
  count_ = new QValueAxis;
  count_->setTitleText(tr("spheres"));
  count_->setLabelFormat(QStringLiteral("%d"));
  dice_ = new QValueAxis;
  dice_->setTitleText(tr("Dice coefficient"));
  dice_->setLabelFormat(QStringLiteral("%.2f"));
  percent_ = new QValueAxis;
  percent_->setTitleText(tr("reach outside [%]"));
  percent_->setLabelFormat(QStringLiteral("%.1f"));
  for (QValueAxis* a : {count_, dice_, percent_}) {
    a->setTitleFont(QFont(font().family(), 8));
    a->setLabelsFont(QFont(font().family(), 8));
  }
  c->addAxis(count_, Qt::AlignBottom);
  c->addAxis(dice_, Qt::AlignLeft);
  c->addAxis(percent_, Qt::AlignRight);
  for (QAbstractSeries* s :
       std::initializer_list<QAbstractSeries*>{greedy_, target_, refined_, chosenPoint_}) {
    s->attachAxis(count_);
    s->attachAxis(dice_);
  }
  reach_->attachAxis(count_);
  reach_->attachAxis(percent_);
  setChart(c);
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(220);
  setToolTip(
      tr("Dice coefficient by sphere count: the greedy cover as it added spheres (line), its prefixes "
         "refined (points, measured exactly), the clump chosen (square). Right axis: how far the refined "
         "spheres may reach outside the mesh, in % of its size.\nClick to choose a sphere count: the fill "
         "is made again with that many spheres."));
  clearFit();
}

void FillCurveChart::clearFit() {
  for (QXYSeries* s : std::initializer_list<QXYSeries*>{greedy_, refined_, chosenPoint_, reach_, target_})
    s->clear();
  count_->setRange(0, 10);
  dice_->setRange(0.5, 1.0);
  percent_->setRange(0.0, 2.0);
  chosen_ = 0;
  largest_ = 0;
  greedyPoints_.clear();
  refinedPoints_.clear();
}

void FillCurveChart::setFit(const shapes::SphereFitResult& fit, double targetDice, bool addToShown) {
  if (!addToShown) clearFit();
  if (fit.curve.size() > greedyPoints_.size()) greedyPoints_ = fit.curve;
  for (const shapes::SphereFitPoint& p : fit.refinedCurve) refinedPoints_[p.count] = p;
  size_ = fit.solidSize > 0.0 ? fit.solidSize : 1.0;
  protrusion_ = fit.maxProtrusion;
  QList<QPointF> greedy, refined, reach;
  double lowest = targetDice > 0.0 ? targetDice : 1.0;
  int largest = static_cast<int>(fit.pebbles.size());
  for (const shapes::SphereFitPoint& p : greedyPoints_) {
    greedy.append(QPointF(p.count, p.dice));
    largest = std::max(largest, p.count);
  }
  for (const auto& [count, p] : refinedPoints_) {
    refined.append(QPointF(count, p.dice));
    reach.append(QPointF(count, 100.0 * std::max(0.0, p.reachOutside) / size_));
    lowest = std::min(lowest, p.dice);
    largest = std::max(largest, count);
  }
  greedy_->replace(greedy);
  refined_->replace(refined);
  reach_->replace(reach);
  chosen_ = static_cast<int>(fit.pebbles.size());
  largest_ = largest;
  const double chosenDice =
      fit.measuredDice > 0.0 ? fit.measuredDice : (fit.curve.empty() ? 0.0 : fit.curve.back().dice);
  chosenPoint_->replace(QList<QPointF>{QPointF(chosen_, chosenDice)});
  target_->clear();
  if (targetDice > 0.0)
    target_->replace(QList<QPointF>{QPointF(0, targetDice), QPointF(largest, targetDice)});
  // The Dice axis from below the lowest refined point to 1.
  const double bottom = std::clamp(std::floor((std::min(lowest, chosenDice) - 0.05) * 10.0) / 10.0, 0.0, 0.9);
  dice_->setRange(bottom, 1.0);
  count_->setRange(0, std::max(10, largest));
  count_->applyNiceNumbers();
  double reachMost = 100.0 * protrusion_ / size_;
  for (const QPointF& p : reach) reachMost = std::max(reachMost, p.y());
  percent_->setRange(0.0, std::max(0.5, 1.25 * reachMost));
}

int FillCurveChart::countAt(QPointF position) const {
  const QPointF inChart = chart()->mapFromScene(mapToScene(position.toPoint()));
  if (largest_ == 0 || !chart()->plotArea().contains(inChart)) return 0;
  const QPointF value = chart()->mapToValue(inChart, greedy_);
  return std::clamp(static_cast<int>(std::lround(value.x())), 1, largest_);
}

void FillCurveChart::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    if (const int count = countAt(event->position()); count > 0) {
      emit countPicked(count);
      event->accept();
      return;
    }
  }
  QChartView::mousePressEvent(event);
}

}  // namespace clumplab::gui::wizard
