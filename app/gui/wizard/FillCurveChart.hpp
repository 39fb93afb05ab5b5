#pragma once
// The trade-off of a sphere fit (fill mode spheres): the Dice coefficient against the sphere count,
// as the greedy cover added spheres (a line, on the working grid) and for the prefixes refined (points,
// measured exactly), the largest reach outside the solid of those points (in % of its size, right
// axis), the target as a dashed line and the clump chosen marked. A click picks a count. Fits of the
// same solid and limits add to what is shown (a count picked keeps the curve it was picked on).
#include <QChartView>
#include <map>

#include "shapes/SphereFit.hpp"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace clumplab::gui::wizard {

class FillCurveChart : public QChartView {
  Q_OBJECT
 public:
  explicit FillCurveChart(QWidget* parent = nullptr);

  // `targetDice` 0: none drawn. `addToShown`: the fit is of the same solid with the same limits as
  // those shown (a greedy prefix and refined prefixes are the same whatever stopped the fit): its
  // points join theirs; otherwise they replace them.
  void setFit(const shapes::SphereFitResult& fit, double targetDice, bool addToShown = false);
  void clearFit();
  int chosenCount() const { return chosen_; }
  int largestCount() const { return largest_; }
  // The sphere count at a point of the widget (the nearest whole count within the plot), 0 outside it.
  int countAt(QPointF position) const;

 signals:
  void countPicked(int count);

 protected:
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QLineSeries* greedy_ = nullptr;
  QScatterSeries* refined_ = nullptr;
  QScatterSeries* chosenPoint_ = nullptr;
  QLineSeries* reach_ = nullptr;
  QLineSeries* target_ = nullptr;
  QValueAxis* count_ = nullptr;
  QValueAxis* dice_ = nullptr;
  QValueAxis* percent_ = nullptr;
  int chosen_ = 0;
  int largest_ = 0;
  std::vector<shapes::SphereFitPoint> greedyPoints_;     // the longest greedy curve seen
  std::map<int, shapes::SphereFitPoint> refinedPoints_;  // by count
  double size_ = 0.0;                                    // [m] the solid's
  double protrusion_ = 0.0;                              // [m] the bound of the fits shown
};

}  // namespace clumplab::gui::wizard
