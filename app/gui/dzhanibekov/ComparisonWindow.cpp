#include "gui/dzhanibekov/ComparisonWindow.hpp"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "gui/dzhanibekov/DzhanibekovText.hpp"
#include "gui/dzhanibekov/Polhode.hpp"
#include "gui/dzhanibekov/SnapshotView.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"

namespace clumplab::gui {

namespace {
struct Pace {
  const char* name;
  double speed;  // 0: as fast as possible
};
constexpr Pace kPaces[] = {{"0.25×", 0.25}, {"0.5×", 0.5}, {"1×", 1.0}, {"as fast as possible", 0.0}};
constexpr int kAsFastIndex = 3;

QString relative(double value, double reference) {
  if (!(reference > 0.0)) return QStringLiteral("—");
  return QString::number((value - reference) / reference, 'e', 1);
}
}  // namespace

ComparisonWindow::ComparisonWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName(QStringLiteral("dzhanibekovComparison"));
  setWindowTitle(tr("Dzhanibekov: leapfrog, midpoint and splitting side by side"));
  auto* layout = new QVBoxLayout(this);
  heading_ = new QLabel;
  heading_->setWordWrap(true);
  heading_->setTextFormat(Qt::RichText);
  layout->addWidget(heading_);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Δt")));
  timeStep_ = new ScientificSpinBox(QStringLiteral("s"), 1e-7, 1e-1, true);
  timeStep_->setToolTip(tr("Time step of all three runs: the integrators differ more at larger steps"));
  controls->addWidget(timeStep_);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("pace")));
  pace_ = new QComboBox;
  for (const Pace& p : kPaces) pace_->addItem(tr(p.name));
  pace_->setCurrentIndex(2);
  controls->addWidget(pace_);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("for")));
  duration_ = new QDoubleSpinBox;
  duration_->setRange(0.1, 3600.0);
  duration_->setDecimals(1);
  duration_->setValue(30.0);
  duration_->setSuffix(QStringLiteral(" s"));
  controls->addWidget(duration_);
  controls->addSpacing(12);
  gyroscopic_ = new QCheckBox(tr("gyroscopic term ω×Iω"));
  gyroscopic_->setChecked(true);
  gyroscopic_->setToolTip(tr("Off: the runs leave out ω×Iω of Euler's equations, as a buggy engine would"));
  controls->addWidget(gyroscopic_);
  controls->addStretch(1);
  auto* restartButton = new QPushButton(tr("Restart"));
  controls->addWidget(restartButton);
  layout->addLayout(controls);

  auto* grid = new QGridLayout;
  for (std::size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    const int column = static_cast<int>(i);
    p.title =
        new QLabel(QStringLiteral("<b>%1</b>")
                       .arg(QString::fromLatin1(integratorName(IntegratorComparison::kIntegrators[i]))));
    p.title->setAlignment(Qt::AlignCenter);
    p.view = new SnapshotView;
    p.view->camera().setAngles(0.0, 0.3);  // from +x: across the spin about body axis 2 (world y)
    p.view->setMinimumSize(220, 200);
    p.view->options().bodyAxes = true;
    p.view->options().angularVelocityArrows = true;
    p.view->options().angularMomentumArrows = true;
    p.stats = new QLabel;
    p.stats->setTextFormat(Qt::RichText);
    p.stats->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    p.stats->setMinimumHeight(5 * p.stats->fontMetrics().height());
    grid->addWidget(p.title, 0, column);
    grid->addWidget(p.view, 1, column);
    grid->addWidget(p.stats, 2, column);
    grid->setColumnStretch(column, 1);
  }
  grid->setRowStretch(1, 1);
  layout->addLayout(grid, 1);
  note_ = new QLabel;
  note_->setWordWrap(true);
  layout->addWidget(note_);

  connect(restartButton, &QPushButton::clicked, this, &ComparisonWindow::restart);
  connect(gyroscopic_, &QCheckBox::toggled, this, &ComparisonWindow::restart);
  connect(pace_, &QComboBox::currentIndexChanged, this, &ComparisonWindow::restart);
  connect(timeStep_, &QDoubleSpinBox::editingFinished, this, &ComparisonWindow::restart);
  connect(duration_, &QDoubleSpinBox::editingFinished, this, &ComparisonWindow::restart);
  connect(&timer_, &QTimer::timeout, this, &ComparisonWindow::refresh);
  resize(1050, 620);
}

ComparisonWindow::~ComparisonWindow() {
  comparison_.stop();
}

void ComparisonWindow::closeEvent(QCloseEvent* event) {
  comparison_.stop();
  timer_.stop();
  event->accept();
}

void ComparisonWindow::start(const ComparisonSetup& setup, const QString& title) {
  setup_ = setup;
  {
    const QSignalBlocker a(timeStep_), b(pace_), c(duration_), d(gyroscopic_);
    timeStep_->setValue(setup.timeStep);
    duration_->setValue(setup.duration);
    gyroscopic_->setChecked(setup.gyroscopic);
    int index = kAsFastIndex;
    if (!setup.asFastAsPossible) {
      for (int i = 0; i < kAsFastIndex; ++i) {
        if (std::abs(kPaces[i].speed - setup.speed) < 1e-9) index = i;
      }
    }
    pace_->setCurrentIndex(index);
  }
  predicted_ =
      setup.clump ? predictedFlipInterval(setup.clump->principalMoments, setup.omegaBody, setup.axis) : 0.0;
  const Vec3& w = setup.omegaBody;
  heading_->setText(tr("%1 in free space from ω = (%2, %3, %4) rad/s in the body frame; flips of ω%5 "
                       "predicted every <b>%6</b> (T/2 = 2K(k)/λ, Landau &amp; Lifshitz §37).")
                        .arg(title.toHtmlEscaped())
                        .arg(w[0], 0, 'g', 4)
                        .arg(w[1], 0, 'g', 4)
                        .arg(w[2], 0, 'g', 4)
                        .arg(axisLabel(setup.axis))
                        .arg(intervalText(predicted_)));
  restart();
}

ComparisonSetup ComparisonWindow::fromControls() const {
  ComparisonSetup s = setup_;
  s.timeStep = timeStep_->value();
  s.duration = duration_->value();
  s.gyroscopic = gyroscopic_->isChecked();
  const Pace& pace = kPaces[std::clamp(pace_->currentIndex(), 0, kAsFastIndex)];
  s.asFastAsPossible = pace.speed == 0.0;
  s.speed = pace.speed > 0.0 ? pace.speed : 1.0;
  return s;
}

void ComparisonWindow::restart() {
  if (!setup_.clump) return;
  setup_ = fromControls();
  note_->setText(
      setup_.gyroscopic
          ? tr("The same body, spin and time step under each integrator. Untick the gyroscopic "
               "term to see the flip disappear.")
          : QStringLiteral("<b>%1</b> %2").arg(tr("No gyroscopic term:"), withoutGyroscopicTermText()));
  comparison_.start(setup_);
  timer_.start(33);
}

void ComparisonWindow::setGyroscopic(bool on) {
  gyroscopic_->setChecked(on);  // restarts when it changes
}

void ComparisonWindow::setAsFastAsPossible() {
  pace_->setCurrentIndex(kAsFastIndex);
}

QString ComparisonWindow::statsText(const ComparisonVariant& v) const {
  const sim::SpinReport& s = v.spin;
  return tr("t = %1 s · flips of ω%2: <b>%3</b><br>interval %4 (%5 against L&amp;L)<br>"
            "ΔE/E %6 · Δ|L|/|L| %7<br>largest angle of ω from the line of axis %8: %9°")
      .arg(v.time, 0, 'f', 2)
      .arg(axisLabel(s.axis))
      .arg(s.flips())
      .arg(intervalText(s.meanInterval()))
      .arg(agreementText(s.meanInterval(), predicted_))
      .arg(relative(v.energy, s.startEnergy))
      .arg(relative(v.momentum, s.startMomentum))
      .arg(axisLabel(s.axis))
      .arg(s.maxConeAngle * 180.0 / M_PI, 0, 'f', 2);
}

void ComparisonWindow::refresh() {
  const std::vector<ComparisonVariant> variants = comparison_.latest();
  if (!comparison_.running()) timer_.stop();
  if (variants.size() != panes_.size() || !setup_.clump) return;
  const double radius = render::kLongestArrowRadii * setup_.clump->boundingRadius * 1.1;  // the arrows
  for (std::size_t i = 0; i < panes_.size(); ++i) {
    Pane& p = panes_[i];
    const ComparisonVariant& v = variants[i];
    Snapshot snapshot;
    snapshot.layoutGeneration = comparison_.generation();
    snapshot.templates = {setup_.clump};
    snapshot.bodies.templateIndex = {0};
    snapshot.bodies.position = {Vec3::Zero()};
    snapshot.bodies.orientation = {v.orientation};
    snapshot.bodies.velocity = {Vec3::Zero()};
    snapshot.bodies.angularVelocity = {v.orientation * v.omegaBody};
    snapshot.time = v.time;
    p.view->options().bodyCurves = {polhodeTrail(0, v.spin.trail)};
    p.view->setSnapshot(snapshot, radius);
    p.stats->setText(statsText(v));
  }
  if (const std::string problem = comparison_.problem(); !problem.empty()) {
    note_->setText(tr("The comparison stopped: %1").arg(QString::fromStdString(problem).toHtmlEscaped()));
  }
}

}  // namespace clumplab::gui
