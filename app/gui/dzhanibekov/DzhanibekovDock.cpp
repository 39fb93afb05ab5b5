#include "gui/dzhanibekov/DzhanibekovDock.hpp"

#include <QAction>
#include <QButtonGroup>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/clump/FreeRotation.hpp"
#include "gui/dzhanibekov/ComparisonWindow.hpp"
#include "gui/dzhanibekov/DzhanibekovText.hpp"
#include "gui/dzhanibekov/EnergyEllipsoidInset.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"
#include "render/ColorMaps.hpp"

namespace clumplab::gui {

namespace {
// Principal moments closer than this share of the largest count as equal [-]: a faceted sphere's
// differ by 4e-4, and a margin of differences that small says more about the facets than the body.
constexpr double kEqualMoments = 1e-3;

// Sliders: omega0 linear in [0, 100] rad/s by 0.1; epsilon logarithmic in [1e-6, 0.5].
constexpr int kSliderSteps = 1000;
constexpr double kOmegaSliderMax = 100.0;  // [rad/s]
constexpr double kEpsilonMin = 1e-6, kEpsilonMax = 0.5;
constexpr double kPlotPoints = 20000.0;  // points a plot keeps over a run, about

int epsilonToSlider(double epsilon) {
  const double t = std::log(std::clamp(epsilon, kEpsilonMin, kEpsilonMax) / kEpsilonMin) /
                   std::log(kEpsilonMax / kEpsilonMin);
  return static_cast<int>(std::lround(t * kSliderSteps));
}

double sliderToEpsilon(int value) {
  return kEpsilonMin * std::pow(kEpsilonMax / kEpsilonMin, static_cast<double>(value) / kSliderSteps);
}

QLabel* valueLabel() {
  auto* label = new QLabel(QStringLiteral("—"));
  label->setTextFormat(Qt::RichText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}
}  // namespace

DzhanibekovDock::DzhanibekovDock(std::function<sim::SimulationLoop*()> loop, QWidget* parent)
    : QDockWidget(tr("Dzhanibekov"), parent), loop_(std::move(loop)) {
  setObjectName(QStringLiteral("dzhanibekovDock"));
  // Three columns, for the wide bottom area: the initialiser; the body and its flips; the plots.
  auto* content = new QWidget;
  auto* layout = new QHBoxLayout(content);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->addWidget(buildInitialiser());
  auto* middle = new QVBoxLayout;
  middle->setSpacing(1);
  title_ = new QLabel(tr("Select a body to study its free rotation."));
  middle->addWidget(title_);
  moments_ = new QLabel;
  moments_->setTextFormat(Qt::RichText);
  middle->addWidget(moments_);
  middle->addWidget(buildResults(), 1);
  layout->addLayout(middle);
  layout->addWidget(buildPlots(), 1);
  // The inset floats over the 3D view (placeInsetOver); until then it waits here, hidden.
  inset_ = new EnergyEllipsoidInset(this);
  inset_->hide();
  connect(this, &QDockWidget::visibilityChanged, this, [this] { placeInset(); });
  // Closed (not merely behind another tab; never while the window is torn down): the simulation
  // thread stops measuring. Opened again, showFrame takes the watch up again.
  connect(toggleViewAction(), &QAction::toggled, this, [this](bool open) {
    if (open) return;
    loop_()->stopWatchingSpin();
    watchTicket_ = loop_()->commandsPosted();
  });

  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(content);
  setWidget(scroll);
  updateLabels();
}

DzhanibekovDock::~DzhanibekovDock() = default;

QWidget* DzhanibekovDock::buildInitialiser() {
  auto* box = new QGroupBox(tr("Spin about a principal axis"));
  auto* form = new QFormLayout(box);
  form->setContentsMargins(6, 2, 6, 2);
  form->setVerticalSpacing(1);
  form->addRow(tr("axis k"), createAxisButtons(*box));
  createSpinRows(*form);
  auto* buttons = new QHBoxLayout;
  apply_ = new QPushButton(tr("Apply"));
  apply_->setToolTip(
      tr("Set the body's angular velocity to this spin at the next step and restart the count"));
  connect(apply_, &QPushButton::clicked, this, &DzhanibekovDock::applySpin);
  buttons->addWidget(apply_);
  gyroscopic_ = new QCheckBox(tr("gyroscopic term ω×Iω"));
  gyroscopic_->setChecked(true);
  gyroscopic_->setToolTip(tr("The live scene's term of Euler's equations (off: no flip; undo with Ctrl+Z)"));
  connect(gyroscopic_, &QCheckBox::toggled, this, &DzhanibekovDock::gyroscopicToggled);
  buttons->addWidget(gyroscopic_);
  form->addRow(buttons);
  showPolhode_ = new QCheckBox(tr("polhode on the body (where L pierces it)"));
  showPolhode_->setChecked(true);
  form->addRow(showPolhode_);
  return box;
}

// The principal axis to spin about, 1 to 3 in the axes' colours (2, the intermediate one, at first).
QLayout* DzhanibekovDock::createAxisButtons(QWidget& box) {
  auto* axes = new QHBoxLayout;
  axisGroup_ = new QButtonGroup(&box);
  for (int a = 0; a < 3; ++a) {
    auto* button = new QRadioButton(QString::number(a + 1));
    button->setStyleSheet(QStringLiteral("QRadioButton { color: %1; font-weight: bold; }")
                              .arg(render::principalAxisColor(a).name()));
    button->setToolTip(a == 1 ? tr("The intermediate axis: unstable, the body flips")
                              : tr("An extreme axis: stable, the spin stays within a small cone"));
    axisGroup_->addButton(button, a);
    axes->addWidget(button);
  }
  axisGroup_->button(1)->setChecked(true);
  axes->addStretch(1);
  connect(axisGroup_, &QButtonGroup::idClicked, this, [this] { watch(); });
  return axes;
}

// ω0 and the perturbation ε, each a spin box beside a slider (ε's logarithmic), kept in step.
void DzhanibekovDock::createSpinRows(QFormLayout& form) {
  omega0_ = new QDoubleSpinBox;
  omega0_->setRange(0.01, 1000.0);
  omega0_->setDecimals(2);
  omega0_->setValue(10.0);
  omega0_->setSuffix(QStringLiteral(" rad/s"));
  omega0Slider_ = new QSlider(Qt::Horizontal);
  omega0Slider_->setRange(0, kSliderSteps);
  auto* omegaRow = new QHBoxLayout;
  omegaRow->addWidget(omega0_);
  omegaRow->addWidget(omega0Slider_, 1);
  form.addRow(tr("ω0"), omegaRow);

  epsilon_ = new QDoubleSpinBox;
  epsilon_->setRange(kEpsilonMin, kEpsilonMax);
  epsilon_->setDecimals(6);
  epsilon_->setSingleStep(0.001);
  epsilon_->setValue(0.01);
  epsilon_->setToolTip(tr("Perturbation: ε ω0 about the next axis (1 → 2, 2 → 3, 3 → 2)"));
  epsilonSlider_ = new QSlider(Qt::Horizontal);
  epsilonSlider_->setRange(0, kSliderSteps);
  epsilonSlider_->setToolTip(tr("ε on a logarithmic scale, 10⁻⁶ to 0.5"));
  auto* epsilonRow = new QHBoxLayout;
  epsilonRow->addWidget(epsilon_);
  epsilonRow->addWidget(epsilonSlider_, 1);
  form.addRow(tr("ε"), epsilonRow);

  const auto syncSliders = [this] {
    const QSignalBlocker a(omega0Slider_), b(epsilonSlider_);
    omega0Slider_->setValue(static_cast<int>(
        std::lround(std::min(omega0_->value(), kOmegaSliderMax) / kOmegaSliderMax * kSliderSteps)));
    epsilonSlider_->setValue(epsilonToSlider(epsilon_->value()));
  };
  syncSliders();
  connect(omega0_, &QDoubleSpinBox::valueChanged, this, syncSliders);
  connect(epsilon_, &QDoubleSpinBox::valueChanged, this, syncSliders);
  connect(omega0Slider_, &QSlider::valueChanged, this, [this](int v) {
    const QSignalBlocker block(omega0_);
    omega0_->setValue(std::max(omega0_->minimum(), kOmegaSliderMax * v / kSliderSteps));
    updateLabels();
  });
  connect(epsilonSlider_, &QSlider::valueChanged, this, [this](int v) {
    const QSignalBlocker block(epsilon_);
    epsilon_->setValue(sliderToEpsilon(v));
    updateLabels();
  });
}

QWidget* DzhanibekovDock::buildResults() {
  auto* box = new QGroupBox(tr("Flips (Landau && Lifshitz §37)"));
  auto* form = new QFormLayout(box);
  form->setContentsMargins(6, 2, 6, 2);
  form->setVerticalSpacing(1);
  predicted_ = valueLabel();
  predicted_->setToolTip(tr("T/2 = 2K(k)/λ from the energy and |L| of the state the count began at"));
  form->addRow(tr("predicted T/2"), predicted_);
  smallEpsilon_ = valueLabel();
  smallEpsilon_->setToolTip(
      tr("T/2 ≈ (2/λ) ln(4/k′), the leading order in a small perturbation of a spin about axis 2 "
         "(K(k) ≈ ln(4/k′)); for ω0 about axis 2 and ε towards axis 3, λ ≈ ω0 √((I2 − I1)(I3 − I2)/(I1 I3)) "
         "and k′ ≈ ε √(I3(I3 − I1)/(I2(I2 − I1)))"));
  form->addRow(tr("small-ε T/2"), smallEpsilon_);
  measured_ = valueLabel();
  form->addRow(tr("measured"), measured_);
  agreement_ = valueLabel();
  form->addRow(tr("measured / predicted"), agreement_);
  flips_ = valueLabel();
  form->addRow(tr("flips"), flips_);
  cone_ = valueLabel();
  cone_->setToolTip(
      tr("The largest angle between ω and the line of the watched axis (either direction) since the count "
         "began: a few degrees about a stable axis, 90° when ω turns over in a flip"));
  form->addRow(tr("ω from axis line"), cone_);
  return box;
}

QWidget* DzhanibekovDock::buildPlots() {
  auto* tabs = new QTabWidget;
  omegaChart_ =
      new TimeSeriesChart({QStringLiteral("ω1"), QStringLiteral("ω2"), QStringLiteral("ω3")}, tr("[rad/s]"));
  energyChart_ = new TimeSeriesChart({tr("rotational energy")}, tr("[J]"));
  driftChart_ = new TimeSeriesChart({tr("ΔE/E₀"), tr("Δ|L|/|L₀|")}, tr("relative"));
  for (TimeSeriesChart* c : {omegaChart_, energyChart_, driftChart_}) {
    c->setRollingWindow(0.0);
    c->setMinimumHeight(110);  // the bottom area is short
  }
  tabs->addTab(omegaChart_, tr("ω (body)"));
  tabs->addTab(energyChart_, tr("energy"));
  tabs->addTab(driftChart_, tr("drift of E, |L|"));
  tabs->setMinimumWidth(380);
  auto* compare = new QPushButton(tr("Compare integrators…"));
  compare->setToolTip(
      tr("The same body and spin under leapfrog, midpoint and splitting side by side, "
         "with and without the gyroscopic term"));
  connect(compare, &QPushButton::clicked, this, [this] { openComparison(); });
  tabs->setCornerWidget(compare);
  return tabs;
}

void DzhanibekovDock::setInitialSpin(int axis, double omega0, double epsilon) {
  if (QAbstractButton* b = axisGroup_->button(std::clamp(axis, 0, 2))) b->setChecked(true);
  omega0_->setValue(omega0);
  epsilon_->setValue(epsilon);
  showSpinOfBody_ = false;  // these, not the body's spin
  watch();
}

int DzhanibekovDock::axis() const {
  return std::max(0, axisGroup_->checkedId());
}
double DzhanibekovDock::omega0() const {
  return omega0_->value();
}
double DzhanibekovDock::epsilon() const {
  return epsilon_->value();
}

void DzhanibekovDock::setBody(int body) {
  if (body == body_) return;
  body_ = body;
  showSpinOfBody_ = true;
  clearHistory();
  watch();
}

void DzhanibekovDock::watch() {
  if (body_ < 0) {
    loop_()->stopWatchingSpin();
  } else {
    loop_()->watchSpin({static_cast<std::uint32_t>(body_), bodyIndexGeneration_}, axis());
  }
  watchTicket_ = loop_()->commandsPosted();
}

void DzhanibekovDock::applySpin() {
  if (body_ < 0) return;
  loop_()->setBodySpin({static_cast<std::uint32_t>(body_), bodyIndexGeneration_},
                       perturbedSpin(axis(), omega0(), epsilon()), axis());
  watchTicket_ = loop_()->commandsPosted();
}

void DzhanibekovDock::showBodySpin(const Vec3& w) {
  int k = 0;
  w.cwiseAbs().maxCoeff(&k);
  const double along = std::abs(w[k]);
  if (!(along > 0.0)) return;  // at rest: the inputs keep what they hold
  // The fields' own signals only move their sliders; the axis, when it changes, is watched anew.
  omega0_->setValue(along);
  const double across = std::sqrt(std::max(0.0, w.squaredNorm() - along * along));
  epsilon_->setValue(std::clamp(across / along, epsilon_->minimum(), epsilon_->maximum()));
  if (k != axis()) {
    if (QAbstractButton* button = axisGroup_->button(k)) button->setChecked(true);
    watch();
  }
}

void DzhanibekovDock::clearHistory() {
  lastTime_ = -1.0;
  trail_.clear();
  for (TimeSeriesChart* c : {omegaChart_, energyChart_, driftChart_}) c->clear();
}

void DzhanibekovDock::showFrame(const sim::SimulationFrame& frame, int selectedBody) {
  const Snapshot& s = frame.snapshot;
  timeStep_ = frame.parameters.timeStep;
  bodyIndexGeneration_ = frame.bodyIndexGeneration;
  contact_ = frame.parameters.contact;
  {
    const QSignalBlocker block(gyroscopic_);
    gyroscopic_->setChecked(frame.parameters.gyroscopic);
  }
  if (frame.sceneGeneration != sceneGeneration_) {
    sceneGeneration_ = frame.sceneGeneration;
    showSpinOfBody_ = true;
    clearHistory();
  }
  const bool current = frame.commandsApplied >= watchTicket_;
  if (!toggleViewAction()->isChecked()) return;  // closed: nothing measured, nothing shown
  if (isVisible() && selectedBody >= 0 && selectedBody != body_) setBody(selectedBody);
  const bool inRange = body_ >= 0 && static_cast<std::size_t>(body_) < s.bodies.size();
  // A load ends the thread's watch: take it up again on the same body number.
  if (current && isVisible() && inRange &&
      (!frame.spin.active || frame.spin.body != static_cast<std::uint32_t>(body_)))
    watch();
  if (current && frame.spin.generation != spinGeneration_) {
    spinGeneration_ = frame.spin.generation;
    clearHistory();
  }
  apply_->setEnabled(inRange && !frame.diverged);
  if (!inRange) {
    clump_.reset();
    readout_ = DzhanibekovReadout{};
    inset_->clear();
    placeInset();
    updateLabels();
    return;
  }
  updateReadout(frame);
  updateLabels();
}

void DzhanibekovDock::updateReadout(const sim::SimulationFrame& frame) {
  const Snapshot& s = frame.snapshot;
  const auto b = static_cast<std::size_t>(body_);
  clump_ = s.templates[s.bodies.templateIndex[b]];
  const Vec3 I = clump_->principalMoments;
  omegaBody_ = s.bodies.orientation[b].conjugate() * s.bodies.angularVelocity[b];
  if (showSpinOfBody_) {
    showSpinOfBody_ = false;
    showBodySpin(omegaBody_);
  }
  const sim::SpinReport& spin = frame.spin;
  const bool watching = spin.active && spin.body == static_cast<std::uint32_t>(body_);

  DzhanibekovReadout r;
  r.body = body_;
  r.moments = I;
  // Equal moments (a cube: equal to round-off; the built-in sphere: to its facets) have no
  // intermediate axis, and the ratio of two such differences means nothing (0.507 for a cube, 0.728
  // for a sphere).
  r.margin = I[2] - I[0] > kEqualMoments * I[2] ? (I[1] - I[0]) / (I[2] - I[0]) : std::nan("");
  r.axis = watching ? spin.axis : axis();
  r.watching = watching;
  const Vec3 start = watching ? spin.startOmegaBody : omegaBody_;
  r.predictedInterval = predictedFlipInterval(I, start, r.axis);
  // Near axis 2, Landau & Lifshitz §37 to leading order in the perturbation: K(k) ~ ln(4/k'), with
  // k' and lambda of the state itself, so a perturbation towards axis 1, 3 or both is covered.
  if (r.axis == 1) {
    const FlipPrediction p = predictFlips(I, start);
    if (p.lambda > 0.0 && p.modulusComplement > 0.0 && p.modulusComplement < 1.0)
      r.smallEpsilonInterval = 2.0 * std::log(4.0 / p.modulusComplement) / p.lambda;
  }
  if (watching) {
    r.flips = spin.flips();
    r.measuredInterval = spin.meanInterval();
    r.maxConeAngle = spin.maxConeAngle;
  }
  readout_ = r;

  const Vec3 lBody = I.cwiseProduct(omegaBody_);
  if (watching) trail_ = spin.trail;
  if (isVisible()) {
    const bool had = inset_->hasState();
    inset_->setState(I, omegaBody_);
    if (had != inset_->hasState()) placeInset();
  }
  // The probe's samples while it watches this body (fine at any speed), else the frames'.
  const double e0 = watching ? spin.startEnergy : rotationalEnergy(I, omegaBody_);
  const double m0 = watching ? spin.startMomentum : lBody.norm();
  const auto plot = [&](double time, const Vec3& w) {
    // Points thin out as the run grows (at most about kPlotPoints per span), so a long fast run
    // keeps a bounded history.
    if (lastTime_ < 0.0) plotStart_ = time;
    if (time <= lastTime_ + (time - plotStart_) / kPlotPoints) return;
    lastTime_ = time;
    const double energy = rotationalEnergy(I, w);
    const double momentum = angularMomentumMagnitude(I, w);
    omegaChart_->append(time, {w[0], w[1], w[2]});
    energyChart_->append(time, {energy});
    driftChart_->append(time, {e0 > 0.0 ? energy / e0 - 1.0 : 0.0, m0 > 0.0 ? momentum / m0 - 1.0 : 0.0});
  };
  if (watching) {
    for (const sim::SpinSample& sample : spin.samples) plot(sample.time, sample.omegaBody);
  } else {
    plot(s.time, omegaBody_);
  }
  for (TimeSeriesChart* c : {omegaChart_, energyChart_, driftChart_}) c->refresh();
}

void DzhanibekovDock::updateLabels() {
  const DzhanibekovReadout& r = readout_;
  if (r.body < 0 || !clump_) {
    title_->setText(tr("Select a body to study its free rotation."));
    moments_->clear();
    for (QLabel* l : {predicted_, smallEpsilon_, measured_, agreement_, flips_, cone_})
      l->setText(QStringLiteral("—"));
    return;
  }
  title_->setText(
      tr("<b>Body %1</b> · %2").arg(r.body).arg(QString::fromStdString(clump_->name).toHtmlEscaped()));
  const QString margin = std::isnan(r.margin)
                             ? tr("undefined: the three moments are equal (within 0.1%), so no axis is "
                                  "intermediate and every spin is stable")
                             : QString::number(r.margin, 'f', 3);
  moments_->setText(tr("I%1 = %2, I%3 = %4, I%5 = %6 kg·m²<br>Dzhanibekov margin (I2 − I1)/(I3 − I1) = %7")
                        .arg(axisLabel(0))
                        .arg(r.moments[0], 0, 'g', 4)
                        .arg(axisLabel(1))
                        .arg(r.moments[1], 0, 'g', 4)
                        .arg(axisLabel(2))
                        .arg(r.moments[2], 0, 'g', 4)
                        .arg(margin));
  predicted_->setText(QStringLiteral("<b>%1</b>").arg(intervalText(r.predictedInterval)));
  smallEpsilon_->setText(r.smallEpsilonInterval > 0.0 ? intervalText(r.smallEpsilonInterval)
                         : r.axis == 1                ? tr("— (ω exactly on an axis)")
                                                      : tr("— (for a spin about axis 2)"));
  measured_->setText(
      r.flips >= 2
          ? tr("<b>%1</b> (mean of %2 intervals)").arg(intervalText(r.measuredInterval)).arg(r.flips - 1)
          : tr("— (needs two flips)"));
  agreement_->setText(agreementText(r.measuredInterval, r.predictedInterval));
  flips_->setText(tr("<b>%1</b> (sign changes of ω%2)").arg(r.flips).arg(axisLabel(r.axis)));
  cone_->setText(QStringLiteral("%1°").arg(r.maxConeAngle * 180.0 / M_PI, 0, 'f', 2));
}

std::vector<render::BodyCurve> DzhanibekovDock::bodyCurves() const {
  if (!isVisible() || !showPolhode_->isChecked() || !clump_ || body_ < 0 || trail_.size() < 2) return {};
  return {polhodeLoop(body_, clump_->principalMoments, omegaBody_), polhodeTrail(body_, trail_)};
}

void DzhanibekovDock::placeInsetOver(QWidget* view) {
  if (insetHost_) insetHost_->removeEventFilter(this);
  insetHost_ = view;
  inset_->setParent(view);
  view->installEventFilter(this);
  placeInset();
}

bool DzhanibekovDock::eventFilter(QObject* watched, QEvent* event) {
  if (watched == insetHost_ && event->type() == QEvent::Resize) placeInset();
  return QDockWidget::eventFilter(watched, event);
}

void DzhanibekovDock::setAreasToKeepClear(std::function<std::vector<QRectF>()> areas) {
  areasToKeepClear_ = std::move(areas);
}

QRect DzhanibekovDock::insetPlace(QSize host, const std::vector<QRectF>& areas) {
  const int fullWidth = std::clamp(host.width() * 9 / 25, 200, 380);
  const int fullHeight = std::min(fullWidth, host.height() * 11 / 20);
  constexpr int kMargin = 10;
  constexpr int kMinWidth = 170;
  const auto at = [&](int corner, int width, int height) {
    const int left = corner == 0 || corner == 3 ? kMargin : host.width() - width - kMargin;
    const int top = corner == 1 || corner == 3 ? kMargin : host.height() - height - kMargin;
    return QRect(left, top, width, height);
  };
  // Bottom left first (clear of the status overlay, top left, and the colour legend, bottom right).
  for (const double shrink : {1.0, 0.8, 0.65, 0.5}) {
    const int width = std::max(kMinWidth, static_cast<int>(fullWidth * shrink));
    const int height = std::max(kMinWidth, static_cast<int>(fullHeight * shrink));
    for (const int corner : {0, 1, 2, 3}) {
      const QRect place = at(corner, width, height);
      if (std::none_of(areas.begin(), areas.end(), [&](const QRectF& a) { return a.intersects(place); }))
        return place;
    }
  }
  return at(0, fullWidth, fullHeight);
}

void DzhanibekovDock::placeInset() {
  const QWidget* view = insetHost_.data();
  if (view == nullptr) return;
  inset_->setGeometry(
      insetPlace(view->size(), areasToKeepClear_ ? areasToKeepClear_() : std::vector<QRectF>{}));
  inset_->setVisible(!isHidden() && inset_->hasState());
  inset_->raise();
}

void DzhanibekovDock::keepInsetClear() {
  if (insetHost_.isNull() || !inset_->isVisible() || !areasToKeepClear_) return;
  const std::vector<QRectF> areas = areasToKeepClear_();
  const QRect now = inset_->geometry();
  if (std::any_of(areas.begin(), areas.end(), [&](const QRectF& a) { return a.intersects(now); }))
    placeInset();
}

ComparisonWindow* DzhanibekovDock::comparison() const {
  return comparison_;
}

ComparisonWindow* DzhanibekovDock::openComparison() {
  if (!comparison_) {
    comparison_ = new ComparisonWindow(window());
    comparison_->setAttribute(Qt::WA_DeleteOnClose);
  }
  if (clump_) {
    ComparisonSetup setup;
    setup.clump = clump_;
    setup.omegaBody = omegaBody_;
    setup.axis = readout_.axis;
    setup.timeStep = timeStep_;
    setup.contact = contact_;
    const double t = predictedFlipInterval(clump_->principalMoments, omegaBody_, setup.axis);
    setup.duration = std::isfinite(t) ? std::clamp(std::ceil(6.5 * t), 10.0, 300.0) : 20.0;
    comparison_->start(setup, tr("Body %1 (%2)").arg(body_).arg(QString::fromStdString(clump_->name)));
  }
  comparison_->show();
  comparison_->raise();
  return comparison_;
}

}  // namespace clumplab::gui
