#pragma once
// The integrator order analysis in the app (Mutze, Polyspherical grains, §1 (viii), (ix);
// core/studies/OrderAnalysis.hpp): the loaded scene with the current parameters, run several times over the
// same span with the steps multiplied by a factor, off the GUI thread with progress and Cancel. Two plots on
// log scales: the distance between synchronous configurations of successive runs, and each run's energy
// deviation; the orders fitted over the chosen window, refitted at once when the window moves.
#include <QDialog>
#include <QStringList>
#include <memory>

#include "core/scene/Scene.hpp"
#include "core/studies/OrderAnalysis.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace clumplab::gui {

class BackgroundJob;
class TimeSeriesChart;

class OrderAnalysisDialog : public QDialog {
  Q_OBJECT
 public:
  OrderAnalysisDialog(std::shared_ptr<const Scene> scene, QWidget* parent = nullptr);
  ~OrderAnalysisDialog() override;

  // Starts the series with the settings shown.
  void run();
  bool busy() const;
  const OrderAnalysis* result() const { return result_.get(); }
  QString resultText() const;
  QSpinBox* runsBox() const { return runs_; }
  QDoubleSpinBox* spanBox() const { return span_; }
  QComboBox* integratorBox() const { return integrator_; }

 signals:
  void finished(bool succeeded);

 private:
  QLayout* createSeriesControls();
  QLayout* createActions();
  void connectJob();
  OrderSettings settings() const;
  void showResult(std::shared_ptr<OrderAnalysis> result);
  void refit();
  void makeCharts(const QStringList& pairs, const QStringList& runs);

  std::shared_ptr<const Scene> scene_;
  std::shared_ptr<OrderAnalysis> result_;  // refitted in place when the window moves
  BackgroundJob* job_ = nullptr;
  QSpinBox* runs_ = nullptr;
  QSpinBox* factor_ = nullptr;
  QSpinBox* samples_ = nullptr;
  QDoubleSpinBox* timeStep_ = nullptr;
  QDoubleSpinBox* span_ = nullptr;
  QDoubleSpinBox* from_ = nullptr;
  QDoubleSpinBox* to_ = nullptr;
  QComboBox* integrator_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* orders_ = nullptr;
  QVBoxLayout* plots_ = nullptr;
  TimeSeriesChart* distanceChart_ = nullptr;
  TimeSeriesChart* energyChart_ = nullptr;
};

}  // namespace clumplab::gui
