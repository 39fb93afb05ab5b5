#include "gui/analysis/OrderAnalysisDialog.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "gui/jobs/BackgroundJob.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"

namespace clumplab::gui {

namespace {
QString orderText(double p) {
  return std::isfinite(p) ? QString::number(p, 'f', 2) : QStringLiteral("—");
}

QString ordersList(const std::vector<double>& orders) {
  QStringList parts;
  for (double p : orders) parts << orderText(p);
  return parts.join(QStringLiteral(", "));
}
}  // namespace

OrderAnalysisDialog::OrderAnalysisDialog(std::shared_ptr<const Scene> scene, QWidget* parent)
    : QDialog(parent), scene_(std::move(scene)) {
  setWindowTitle(tr("Integrator order analysis"));
  resize(980, 720);
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("The scene is run several times over the same span, the number of steps multiplied by a factor from "
         "one run to the next (Mutze, Polyspherical grains, §1 viii, ix). For an integrator of order "
         "p the distance between "
         "synchronous configurations of successive runs, and the deviation of the conserved energy, fall by "
         "factor^p; p is fitted over the window."));
  intro->setWordWrap(true);
  layout->addWidget(intro);

  layout->addLayout(createSeriesControls());
  layout->addLayout(createActions());
  orders_ = new QLabel(tr("Not run yet."));
  orders_->setWordWrap(true);
  orders_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = orders_->font();
  bold.setBold(true);
  orders_->setFont(bold);
  layout->addWidget(orders_);
  plots_ = new QVBoxLayout;
  layout->addLayout(plots_, 1);
  makeCharts({tr("successive runs")}, {tr("each run")});
  connectJob();
}

// The series (integrator, runs, factor, first step) on the left; span, instants, fit window right.
QLayout* OrderAnalysisDialog::createSeriesControls() {
  auto* controls = new QHBoxLayout;
  auto* left = new QFormLayout;
  auto* right = new QFormLayout;
  integrator_ = new QComboBox;
  for (IntegratorKind k : {IntegratorKind::Leapfrog, IntegratorKind::Midpoint, IntegratorKind::Splitting})
    integrator_->addItem(QString::fromLatin1(integratorName(k).data()), static_cast<int>(k));
  integrator_->setCurrentIndex(integrator_->findData(static_cast<int>(scene_->model.settings.integrator)));
  left->addRow(tr("Integrator"), integrator_);
  runs_ = new QSpinBox;
  runs_->setRange(3, 8);
  runs_->setValue(4);
  left->addRow(tr("Runs"), runs_);
  factor_ = new QSpinBox;
  factor_->setRange(2, 10);
  factor_->setValue(2);
  factor_->setPrefix(QStringLiteral("×"));
  left->addRow(tr("Steps multiplied by"), factor_);
  timeStep_ = new ScientificSpinBox(QStringLiteral("s"), 1e-12, 1.0, true);
  timeStep_->setValue(scene_->model.settings.timeStep);
  left->addRow(tr("Time step of the first run"), timeStep_);
  span_ = new ScientificSpinBox(QStringLiteral("s"), 1e-9, 1e6, true);
  span_->setValue(scene_->duration > 0.0
                      ? std::min(scene_->duration, 2000.0 * scene_->model.settings.timeStep)
                      : 1000.0 * scene_->model.settings.timeStep);
  right->addRow(tr("Span"), span_);
  samples_ = new QSpinBox;
  samples_->setRange(2, 100000);
  samples_->setValue(200);
  right->addRow(tr("Synchronous instants"), samples_);
  from_ = new ScientificSpinBox(QStringLiteral("s"), 0.0, 1e6, false);
  from_->setValue(0.0);
  to_ = new ScientificSpinBox(QStringLiteral("s"), 0.0, 1e6, false);
  to_->setValue(0.0);
  to_->setToolTip(tr("0: the end of the span"));
  auto* window = new QHBoxLayout;
  window->addWidget(from_);
  window->addWidget(new QLabel(tr("to")));
  window->addWidget(to_);
  right->addRow(tr("Fit window"), window);
  controls->addLayout(left);
  controls->addLayout(right);
  return controls;
}

// Run, Cancel and the progress bar.
QLayout* OrderAnalysisDialog::createActions() {
  auto* actions = new QHBoxLayout;
  runButton_ = new QPushButton(tr("Run the series"));
  runButton_->setDefault(true);
  cancelButton_ = new QPushButton(tr("Cancel"));
  cancelButton_->setEnabled(false);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  actions->addWidget(runButton_);
  actions->addWidget(cancelButton_);
  actions->addWidget(progress_, 1);
  return actions;
}

// The series runs as a background job: the buttons follow it, its progress, failure and
// cancellation are shown; moving the fit window refits.
void OrderAnalysisDialog::connectJob() {
  job_ = new BackgroundJob(this);
  connect(runButton_, &QPushButton::clicked, this, &OrderAnalysisDialog::run);
  connect(cancelButton_, &QPushButton::clicked, job_, &BackgroundJob::cancel);
  connect(job_, &BackgroundJob::busyChanged, this, [this](bool busy) {
    runButton_->setEnabled(!busy);
    cancelButton_->setEnabled(busy);
  });
  connect(job_, &BackgroundJob::progress, this, [this](double f, const QString&) {
    progress_->setValue(static_cast<int>(std::lround(1000.0 * f)));
  });
  connect(job_, &BackgroundJob::failedNow, this, [this](const QString& message) {
    orders_->setText(tr("The series stopped: %1").arg(message));
    emit finished(false);
  });
  connect(job_, &BackgroundJob::cancelledNow, this, [this] {
    orders_->setText(result_ ? resultText() + tr("  (a new series was cancelled)") : tr("Cancelled."));
    progress_->setValue(0);
    emit finished(false);
  });
  for (QDoubleSpinBox* box : {from_, to_})
    connect(box, &QDoubleSpinBox::valueChanged, this, &OrderAnalysisDialog::refit);
}

OrderAnalysisDialog::~OrderAnalysisDialog() = default;

bool OrderAnalysisDialog::busy() const {
  return job_->busy();
}

OrderSettings OrderAnalysisDialog::settings() const {
  OrderSettings s;
  s.runs = runs_->value();
  s.factor = factor_->value();
  s.timeStep = timeStep_->value();
  s.duration = span_->value();
  s.samples = samples_->value();
  s.windowBegin = from_->value();
  s.windowEnd = to_->value();
  return s;
}

void OrderAnalysisDialog::run() {
  auto scene = std::make_shared<Scene>(*scene_);
  scene->model.settings.integrator = static_cast<IntegratorKind>(integrator_->currentData().toInt());
  scene->model.settings.threads = 1;  // the live simulation keeps the other cores
  const OrderSettings s = settings();
  orders_->setText(tr("Running %1 runs…").arg(s.runs));
  job_->start([this, scene, s](const WorkProgress& progress) -> std::function<void()> {
    auto result = std::make_shared<OrderAnalysis>(analyzeOrder(*scene, s, progress));
    return [this, result] { showResult(result); };
  });
}

QString OrderAnalysisDialog::resultText() const {
  if (!result_) return {};
  const OrderAnalysis& a = *result_;
  return tr("Over %1 s to %2 s: trajectory order %3 (per pair: %4) · energy order %5 (per run pair: %6)")
      .arg(a.windowBegin, 0, 'g', 4)
      .arg(a.windowEnd, 0, 'g', 4)
      .arg(orderText(a.trajectoryOrder), ordersList(a.trajectoryOrders), orderText(a.energyOrder),
           ordersList(a.energyOrders));
}

void OrderAnalysisDialog::showResult(std::shared_ptr<OrderAnalysis> result) {
  result_ = std::move(result);
  const OrderAnalysis& a = *result_;
  QStringList pairs, runs;
  for (std::size_t k = 0; k < a.distance.size(); ++k)
    pairs << tr("dt %1 s vs %2 s").arg(a.timeSteps[k], 0, 'g', 3).arg(a.timeSteps[k + 1], 0, 'g', 3);
  for (double dt : a.timeSteps) runs << tr("dt = %1 s").arg(dt, 0, 'g', 3);
  makeCharts(pairs, runs);
  for (std::size_t j = 0; j < a.times.size(); ++j) {
    std::vector<double> d, e;
    for (const auto& series : a.distance) d.push_back(series[j]);
    for (const auto& series : a.energyDeviation) e.push_back(series[j]);
    distanceChart_->append(a.times[j], d);
    energyChart_->append(a.times[j], e);
  }
  distanceChart_->refresh(true);
  energyChart_->refresh(true);
  progress_->setValue(1000);
  refit();
  emit finished(true);
}

void OrderAnalysisDialog::makeCharts(const QStringList& pairs, const QStringList& runs) {
  for (TimeSeriesChart* old : {distanceChart_, energyChart_}) {
    if (old) old->deleteLater();
  }
  distanceChart_ = new TimeSeriesChart(pairs, tr("distance [m]"));
  energyChart_ = new TimeSeriesChart(runs, tr("|ΔE| [J]"));
  distanceChart_->setTitle(tr("Distance between synchronous configurations of successive runs"));
  energyChart_->setTitle(tr("Deviation of total + dissipated energy"));
  for (TimeSeriesChart* c : {distanceChart_, energyChart_}) {
    c->setLogScale(true);
    plots_->addWidget(c, 1);
  }
}

void OrderAnalysisDialog::refit() {
  if (!result_) return;
  // The window moved: the orders again from the same runs.
  result_->windowBegin = from_->value();
  result_->windowEnd = to_->value() > result_->windowBegin ? to_->value() : result_->times.back();
  refitOrders(*result_);
  orders_->setText(resultText());
}

}  // namespace clumplab::gui
