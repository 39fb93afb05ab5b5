#include "gui/wizard/FillPage.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <cmath>

#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/wizard/ClumpPreview.hpp"
#include "gui/wizard/FillCurveChart.hpp"
#include "gui/wizard/JobStatus.hpp"
#include "gui/wizard/WizardModel.hpp"
#include "gui/wizard/WizardText.hpp"

namespace clumplab::gui::wizard {

namespace {
// `x` to 4 significant digits: the figures shown in controls not in use read well, and a control
// brought into use starts from a round number.
double rounded(double x) {
  if (!(x > 0.0)) return x;
  const double perUnit = std::pow(10.0, 3.0 - std::floor(std::log10(x)));
  return std::round(x * perUnit) / perUnit;
}

QString modeOf(const FillSettings& f) {
  if (f.spheres) return QStringLiteral("spheres");
  if (f.shellOnly) return QStringLiteral("shell");
  if (f.fitted) return QStringLiteral("fitted");
  return f.radius > 0.0 ? QStringLiteral("given") : QStringLiteral("circumscribed");
}
}  // namespace

FillPage::FillPage(WizardModel& model, QWidget* parent) : QWizardPage(parent), model_(model) {
  setTitle(tr("Fill with pebbles"));
  setSubTitle(
      tr("Pebble centres on a regular grid of spacing h, kept where they lie inside the mesh "
         "(MClump mode 3), or spheres of varied radii fitted to the shape. The preview follows the "
         "controls."));

  auto* columns = new QHBoxLayout(this);
  auto* left = new QVBoxLayout;
  auto* form = new QFormLayout;
  addTargetRows(*form);
  addPebbleRows(*form);
  left->addLayout(form);
  addResultWidgets(*left);
  columns->addLayout(left, 2);
  preview_ = new ClumpPreview;
  ClumpPreview::addAsColumn(preview_, columns);
  connectControls();
}

// What the fill aims at: a count, a spacing or a Dice coefficient, with their limits.
void FillPage::addTargetRows(QFormLayout& form) {
  by_ = new QComboBox;
  by_->setObjectName(QStringLiteral("fillBy"));
  by_->addItem(tr("a target pebble count"), QStringLiteral("count"));
  by_->addItem(tr("a grid spacing h"), QStringLiteral("spacing"));
  by_->addItem(tr("a target Dice coefficient"), QStringLiteral("dice"));
  form.addRow(tr("Choose the fill by:"), by_);
  count_ = new QSpinBox;
  count_->setObjectName(QStringLiteral("targetCount"));
  count_->setRange(1, 2'000'000);
  count_->setSuffix(tr(" pebbles"));
  count_->setValue(300);
  form.addRow(tr("Target count:"), count_);
  dice_ = new QDoubleSpinBox;
  dice_->setObjectName(QStringLiteral("targetDice"));
  dice_->setRange(0.5, 0.999);
  dice_->setDecimals(3);
  dice_->setSingleStep(0.005);
  dice_->setValue(0.95);
  dice_->setToolTip(
      tr("Spheres are added until the Dice coefficient 2|mesh ∩ clump| / (|mesh| + |clump|) reaches this"));
  form.addRow(tr("Target Dice:"), dice_);
  largest_ = new QSpinBox;
  largest_->setObjectName(QStringLiteral("largestCount"));
  largest_->setRange(1, 60000);
  largest_->setValue(1000);
  largest_->setSuffix(tr(" spheres"));
  largest_->setToolTip(
      tr("With a target Dice: no more spheres than this (it stops at the first of the two)"));
  form.addRow(tr("Largest count:"), largest_);
  protrusion_ = new QDoubleSpinBox;
  protrusion_->setObjectName(QStringLiteral("maxProtrusion"));
  protrusion_->setRange(0.0, 20.0);
  protrusion_->setDecimals(2);
  protrusion_->setSingleStep(0.25);
  protrusion_->setValue(2.0);
  protrusion_->setSuffix(tr(" % of the size"));
  protrusion_->setToolTip(tr("How far a sphere may reach outside the mesh (0: every sphere inside it)"));
  form.addRow(tr("Largest protrusion:"), protrusion_);
}

// The grid's spacing and how pebbles are made on it.
void FillPage::addPebbleRows(QFormLayout& form) {
  spacing_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  spacing_->setObjectName(QStringLiteral("spacing"));
  spacing_->setValue(1e-3);
  form.addRow(tr("Spacing h:"), spacing_);
  mode_ = new QComboBox;
  mode_->setObjectName(QStringLiteral("radiusMode"));
  mode_->addItem(tr("circumscribed: r = (√3/2) h"), QStringLiteral("circumscribed"));
  mode_->addItem(tr("given radius r"), QStringLiteral("given"));
  mode_->addItem(tr("fitted: r = min(r, distance to surface)"), QStringLiteral("fitted"));
  mode_->addItem(tr("shell only: centres near the surface"), QStringLiteral("shell"));
  mode_->addItem(tr("spheres fitted to the shape (varied radii)"), QStringLiteral("spheres"));
  form.addRow(tr("Pebbles:"), mode_);
  radius_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  radius_->setObjectName(QStringLiteral("radius"));
  radius_->setValue(1e-3);
  radius_->setToolTip(tr("Given radius, or the largest radius of a fitted pebble"));
  form.addRow(tr("r:"), radius_);
  minimum_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  minimum_->setObjectName(QStringLiteral("minRadius"));
  minimum_->setValue(2.5e-4);
  minimum_->setToolTip(tr("Fitted pebbles smaller than this are dropped; fitted spheres are no smaller"));
  limitRadius_ = new QCheckBox(tr("limit"));
  limitRadius_->setObjectName(QStringLiteral("limitRadius"));
  limitRadius_->setToolTip(tr("Spheres: no sphere smaller than this (else one working voxel)"));
  auto* minimumRow = new QHBoxLayout;
  minimumRow->addWidget(minimum_, 1);
  minimumRow->addWidget(limitRadius_);
  form.addRow(tr("Smallest r:"), minimumRow);
  band_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  band_->setObjectName(QStringLiteral("band"));
  band_->setValue(1e-3);
  band_->setToolTip(tr("Shell only: keep centres within this distance of the surface"));
  form.addRow(tr("Shell band:"), band_);
}

// Below the settings: their error, the mesh switch, the job's status, the fill curve, the pile cost.
void FillPage::addResultWidgets(QVBoxLayout& left) {
  settingsError_ = new QLabel;
  styleAsError(settingsError_);
  settingsError_->hide();
  left.addWidget(settingsError_);
  showMesh_ = new QCheckBox(tr("Show the mesh"));
  showMesh_->setChecked(true);
  left.addWidget(showMesh_);
  status_ = new JobStatus(model_.fillJob());
  left.addWidget(status_);
  curve_ = new FillCurveChart;
  left.addWidget(curve_, 1);
  cost_ = new QLabel;
  cost_->setObjectName(QStringLiteral("pileCost"));
  cost_->setWordWrap(true);
  cost_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  left.addWidget(cost_);
  left.addStretch(0);
}

// Every control refills (apply); the curve picks a count; the model's results and the job's state.
void FillPage::connectControls() {
  connect(by_, &QComboBox::currentIndexChanged, this, &FillPage::apply);
  connect(count_, &QSpinBox::valueChanged, this, &FillPage::apply);
  connect(largest_, &QSpinBox::valueChanged, this, &FillPage::apply);
  connect(dice_, &QDoubleSpinBox::valueChanged, this, &FillPage::apply);
  connect(protrusion_, &QDoubleSpinBox::valueChanged, this, &FillPage::apply);
  connect(limitRadius_, &QCheckBox::toggled, this, &FillPage::apply);
  connect(curve_, &FillCurveChart::countPicked, this, &FillPage::pickCount);
  connect(mode_, &QComboBox::currentIndexChanged, this, &FillPage::apply);
  for (ScientificSpinBox* box : {spacing_, radius_, minimum_, band_})
    connect(box, &QDoubleSpinBox::valueChanged, this, &FillPage::apply);
  connect(showMesh_, &QCheckBox::toggled, preview_, &ClumpPreview::setMeshVisible);
  connect(&model_, &WizardModel::clumpChanged, this, &FillPage::showResult);
  connect(&model_.fillJob(), &BackgroundJob::busyChanged, this, &QWizardPage::completeChanged);
  connect(&model_.fillJob(), &BackgroundJob::cancelledNow, this, &FillPage::revertToResult);
}

void FillPage::initializePage() {
  if (const auto mesh = model_.mesh()) preview_->setMesh(mesh->prepared.mesh);
  showSettings(model_.fillSettings());
  if (model_.clumpCurrent()) {
    showResult();
  } else {
    status_->setSummary(QString());
    model_.requestFill();
  }
}

void FillPage::showSettings(const FillSettings& f) {
  const QSignalBlocker b1(by_), b2(count_), b3(spacing_), b4(mode_), b5(radius_), b6(minimum_), b7(band_),
      b8(dice_), b9(largest_), b10(protrusion_), b11(limitRadius_);
  by_->setCurrentIndex(by_->findData(f.spheres ? (f.targetCount > 0 ? "count" : "dice")
                                               : (f.spacing > 0.0 ? "spacing" : "count")));
  if (f.spacing > 0.0) spacing_->setValue(f.spacing);
  lastMode_ = modeOf(f);
  if (f.spheres) {
    if (f.targetDice > 0.0) dice_->setValue(f.targetDice);
    largest_->setValue(f.maxCount > 0 ? static_cast<int>(f.maxCount) : 1000);
    const double size = meshSize();
    protrusion_->setValue(f.maxProtrusion < 0.0 || !(size > 0.0) ? 2.0 : 100.0 * f.maxProtrusion / size);
    limitRadius_->setChecked(f.minimumRadius > 0.0);
  }
  if (f.targetCount > 0) count_->setValue(static_cast<int>(f.targetCount));
  mode_->setCurrentIndex(mode_->findData(modeOf(f)));
  if (f.radius > 0.0) radius_->setValue(f.radius);
  if (f.minimumRadius > 0.0) minimum_->setValue(f.minimumRadius);
  if (f.shellBand > 0.0) band_->setValue(f.shellBand);
  updateEnabled();
}

void FillPage::updateEnabled() {
  const QString mode = mode_->currentData().toString();
  const bool spheres = mode == QLatin1String("spheres");
  // A grid is chosen by a count or a spacing, spheres by a count or a target Dice.
  if (auto* items = qobject_cast<QStandardItemModel*>(by_->model())) {
    items->item(by_->findData(QStringLiteral("spacing")))->setEnabled(!spheres);
    items->item(by_->findData(QStringLiteral("dice")))->setEnabled(spheres);
  }
  const QString by = by_->currentData().toString();
  if ((spheres && by == QLatin1String("spacing")) || (!spheres && by == QLatin1String("dice"))) {
    const QSignalBlocker block(by_);
    by_->setCurrentIndex(by_->findData(spheres ? QStringLiteral("dice") : QStringLiteral("count")));
  }
  const QString chosenBy = by_->currentData().toString();
  count_->setEnabled(chosenBy == QLatin1String("count"));
  spacing_->setEnabled(chosenBy == QLatin1String("spacing"));
  dice_->setEnabled(chosenBy == QLatin1String("dice"));
  largest_->setEnabled(chosenBy == QLatin1String("dice"));
  protrusion_->setEnabled(spheres);
  radius_->setEnabled(mode == QLatin1String("given") || mode == QLatin1String("fitted"));
  limitRadius_->setVisible(spheres);
  minimum_->setEnabled(mode == QLatin1String("fitted") || (spheres && limitRadius_->isChecked()));
  band_->setEnabled(mode == QLatin1String("shell"));
  curve_->setVisible(spheres);
}

void FillPage::pickCount(int count) {
  {
    const QSignalBlocker b1(by_), b2(count_);
    by_->setCurrentIndex(by_->findData(QStringLiteral("count")));
    count_->setValue(count);
  }
  apply();
}

double FillPage::meshSize() const {
  const auto mesh = model_.mesh();
  if (!mesh || !mesh->solid) return 0.0;
  Vec3 lower, upper;
  mesh->solid->bounds(lower, upper);
  return (upper - lower).maxCoeff();
}

QString FillPage::costText(const FilledClump& clump) const {
  if (!clump.pileCostError.empty())
    return tr("No cost estimate: %1").arg(QString::fromStdString(clump.pileCostError).toHtmlEscaped());
  if (!clump.pileCost) return {};
  const PileCost& cost = *clump.pileCost;
  return tr("<b>Predicted cost</b> in a pile of %1 (%2, density %3 kg/m³): time step %4 s · "
            "%5 pebbles per body, %6 of them on the outside · at least %7 simulated s per wall s on one "
            "core")
      .arg(cost.bodies)
      .arg(QString::fromStdString(cost.law).toHtmlEscaped())
      .arg(clump.density, 0, 'g', 4)
      .arg(cost.timeStep, 0, 'g', 3)
      .arg(clump.fill.pebbles.size())
      .arg(cost.exposedPebbles)
      .arg(cost.simulatedSecondsPerWallSecond, 0, 'g', 2);
}

void FillPage::apply() {
  // Spheres chosen from a grid mode: by a target Dice, their natural budget.
  const QString newMode = mode_->currentData().toString();
  if (newMode == QLatin1String("spheres") && lastMode_ != newMode) {
    const QSignalBlocker block(by_);
    by_->setCurrentIndex(by_->findData(QStringLiteral("dice")));
  }
  lastMode_ = newMode;
  updateEnabled();
  const bool bySpacing = by_->currentData().toString() == QLatin1String("spacing");
  const bool byDice = by_->currentData().toString() == QLatin1String("dice");
  const QString mode = mode_->currentData().toString();
  try {
    if (mode == QLatin1String("spheres")) {
      const double size = meshSize();
      const double protrusion = size > 0.0 ? 0.01 * protrusion_->value() * size : -1.0;
      model_.setFillSettings(makeSphereFillSettings(
          byDice ? 0 : count_->value(), byDice ? dice_->value() : 0.0, protrusion,
          limitRadius_->isChecked() ? minimum_->value() : 0.0, byDice ? largest_->value() : 0));
      settingsError_->hide();
      emit completeChanged();
      return;
    }
    const FillSettings f = makeFillSettings(
        bySpacing ? spacing_->value() : 0.0, bySpacing ? 0 : count_->value(),
        (mode == QLatin1String("given") || mode == QLatin1String("fitted")) ? radius_->value() : 0.0,
        mode.toStdString(), mode == QLatin1String("shell") ? band_->value() : 0.0,
        mode == QLatin1String("fitted") ? minimum_->value() : 0.0);
    settingsError_->hide();
    model_.setFillSettings(f);
  } catch (const std::exception& e) {
    settingsError_->setText(QString::fromStdString(e.what()));
    settingsError_->show();
  }
  emit completeChanged();
}

void FillPage::revertToResult() {
  if (const auto clump = model_.clump(); clump && clump->mesh == model_.mesh()) {
    showSettings(clump->settings);
    model_.setFillSettings(clump->settings);
    showResult();
  }
  emit completeChanged();
}

void FillPage::showResult() {
  const auto clump = model_.clump();
  if (!clump || clump->mesh != model_.mesh()) return;
  preview_->setPebbles(clump->fill.pebbles);
  cost_->setText(costText(*clump));
  if (clump->settings.spheres) {
    const shapes::SphereFitResult& fit = clump->sphereFit;
    // A fit of the same mesh and limits adds to the curve shown (a count picked keeps the curve).
    const auto key = std::make_tuple(clump->mesh.get(), fit.maxProtrusion, clump->settings.minimumRadius);
    curve_->setFit(fit, clump->settings.targetDice, key == curveKey_);
    curveKey_ = key;
    QString text = tr("%n spheres", nullptr, static_cast<int>(fit.pebbles.size()));
    if (fit.measuredDice > 0.0) text += tr(" · Dice %1").arg(fit.measuredDice, 0, 'f', 4);
    text += tr(" · stopped at the %1").arg(QString::fromStdString(fit.stopReason));
    double smallest = 0.0;
    for (const Pebble& p : fit.pebbles) smallest = smallest > 0.0 ? std::min(smallest, p.radius) : p.radius;
    text += tr(" · smallest r %1 · protrusion at most %2")
                .arg(lengthText(smallest), lengthText(fit.maxProtrusion));
    text += tr("\nThe curve: Dice by count; click it to choose a count.");
    status_->setSummary(text);
    emit completeChanged();
    return;
  }
  const shapes::FillResult& f = clump->fill;
  // The controls not in use show the figures this fill used (h, r, h / 4, h), so a switch of mode
  // or of count and spacing starts from them and changes one thing at a time.
  {
    const QSignalBlocker b1(spacing_), b2(count_), b3(radius_), b4(minimum_), b5(band_);
    if (!spacing_->isEnabled()) spacing_->setValue(rounded(f.spacing));
    if (!count_->isEnabled())
      count_->setValue(static_cast<int>(std::min<std::size_t>(f.pebbles.size(), 2'000'000)));
    if (!radius_->isEnabled()) radius_->setValue(rounded(f.radius));
    if (!minimum_->isEnabled()) minimum_->setValue(rounded(0.25 * f.spacing));
    if (!band_->isEnabled()) band_->setValue(rounded(f.spacing));
  }
  QString text = tr("%1 pebbles · h = %2 · r = %3 · %4 grid points, %5 inside")
                     .arg(f.pebbles.size())
                     .arg(lengthText(f.spacing), lengthText(f.radius))
                     .arg(f.candidates)
                     .arg(f.inside);
  if (f.droppedSmall > 0) text += tr(" · %1 fitted pebbles too small, dropped").arg(f.droppedSmall);
  if (f.searchSteps > 0) text += tr(" · %1 spacings tried").arg(f.searchSteps);
  if (preview_->pebblesShown() < f.pebbles.size())
    text += tr("\nThe preview shows %1 of them (evenly thinned).").arg(preview_->pebblesShown());
  status_->setSummary(text);
  emit completeChanged();
}

bool FillPage::isComplete() const {
  return model_.clumpCurrent() && !model_.fillJob().busy();
}

}  // namespace clumplab::gui::wizard
