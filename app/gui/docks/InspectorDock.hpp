#pragma once
// The inspector: the selected body's template, mass, principal moments, position, velocity, angular
// velocity (world and body frame), angular momentum and kinetic energy, live; and a plot of any of
// these quantities against time (ω in the body frame by default).
#include <QDockWidget>

#include "core/world/Snapshot.hpp"

class QComboBox;
class QLabel;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace clumplab::gui {

class TimeSeriesChart;

// Quantities of one body at one instant, all SI, world frame unless named body.
struct BodyReadout {
  std::string templateName;
  double mass = 0.0;
  Vec3 principalMoments = Vec3::Zero();
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  Vec3 bodyAngularVelocity = Vec3::Zero();
  Vec3 angularMomentum = Vec3::Zero();  // about the centre of mass
  double kineticTranslational = 0.0;
  double kineticRotational = 0.0;
  Quat orientation = Quat::Identity();

  static BodyReadout of(const Snapshot& snapshot, std::size_t body);
};

class InspectorDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit InspectorDock(QWidget* parent = nullptr);
  // Shows body `body` of `snapshot` (-1: nothing selected) and records the plotted quantity.
  // The body-frame angular velocity plot drawn at `size` (for a movie's frames).
  QImage bodyOmegaPlotImage(QSize size);
  void show(const Snapshot& snapshot, int body, std::uint64_t sceneGeneration);
  TimeSeriesChart* chart() const { return chart_; }

 private:
  void choosePlot(int index);
  void setRow(QTreeWidgetItem* item, const QString& value);
  void setRow(QTreeWidgetItem* item, const Vec3& value);

  QLabel* title_ = nullptr;
  QTreeWidget* table_ = nullptr;
  std::vector<QTreeWidgetItem*> rows_;
  QComboBox* plotChoice_ = nullptr;
  TimeSeriesChart* charts_[5] = {};
  TimeSeriesChart* chart_ = nullptr;
  QStackedWidget* chartStack_ = nullptr;
  int body_ = -1;
  std::uint64_t generation_ = 0;
  double lastTime_ = -1.0;
};

}  // namespace clumplab::gui
