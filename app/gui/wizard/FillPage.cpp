#include "gui/wizard/FillPage.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/wizard/ClumpPreview.hpp"
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
  if (f.shellOnly) return QStringLiteral("shell");
  if (f.fitted) return QStringLiteral("fitted");
  return f.radius > 0.0 ? QStringLiteral("given") : QStringLiteral("circumscribed");
}
}  // namespace

FillPage::FillPage(WizardModel& model, QWidget* parent) : QWizardPage(parent), model_(model) {
  setTitle(tr("Fill with pebbles"));
  setSubTitle(
      tr("Pebble centres on a regular grid of spacing h, kept where they lie inside the mesh "
         "(MClump mode 3). The preview follows the controls."));

  auto* columns = new QHBoxLayout(this);
  auto* left = new QVBoxLayout;
  auto* form = new QFormLayout;
  by_ = new QComboBox;
  by_->setObjectName(QStringLiteral("fillBy"));
  by_->addItem(tr("a target pebble count"), QStringLiteral("count"));
  by_->addItem(tr("a grid spacing h"), QStringLiteral("spacing"));
  form->addRow(tr("Choose the grid by:"), by_);
  count_ = new QSpinBox;
  count_->setObjectName(QStringLiteral("targetCount"));
  count_->setRange(1, 2'000'000);
  count_->setSuffix(tr(" pebbles"));
  count_->setValue(300);
  form->addRow(tr("Target count:"), count_);
  spacing_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  spacing_->setObjectName(QStringLiteral("spacing"));
  spacing_->setValue(1e-3);
  form->addRow(tr("Spacing h:"), spacing_);
  mode_ = new QComboBox;
  mode_->setObjectName(QStringLiteral("radiusMode"));
  mode_->addItem(tr("circumscribed: r = (√3/2) h"), QStringLiteral("circumscribed"));
  mode_->addItem(tr("given radius r"), QStringLiteral("given"));
  mode_->addItem(tr("fitted: r = min(r, distance to surface)"), QStringLiteral("fitted"));
  mode_->addItem(tr("shell only: centres near the surface"), QStringLiteral("shell"));
  form->addRow(tr("Radius:"), mode_);
  radius_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  radius_->setObjectName(QStringLiteral("radius"));
  radius_->setValue(1e-3);
  radius_->setToolTip(tr("Given radius, or the largest radius of a fitted pebble"));
  form->addRow(tr("r:"), radius_);
  minimum_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  minimum_->setObjectName(QStringLiteral("minRadius"));
  minimum_->setValue(2.5e-4);
  minimum_->setToolTip(tr("Fitted pebbles smaller than this are dropped"));
  form->addRow(tr("Smallest fitted r:"), minimum_);
  band_ = new ScientificSpinBox(QStringLiteral("m"), 1e-9, 1e3, true);
  band_->setObjectName(QStringLiteral("band"));
  band_->setValue(1e-3);
  band_->setToolTip(tr("Shell only: keep centres within this distance of the surface"));
  form->addRow(tr("Shell band:"), band_);
  left->addLayout(form);
  settingsError_ = new QLabel;
  styleAsError(settingsError_);
  settingsError_->hide();
  left->addWidget(settingsError_);
  showMesh_ = new QCheckBox(tr("Show the mesh"));
  showMesh_->setChecked(true);
  left->addWidget(showMesh_);
  status_ = new JobStatus(model_.fillJob());
  left->addWidget(status_);
  left->addStretch(1);
  columns->addLayout(left, 2);
  preview_ = new ClumpPreview;
  ClumpPreview::addAsColumn(preview_, columns);

  connect(by_, &QComboBox::currentIndexChanged, this, &FillPage::apply);
  connect(count_, &QSpinBox::valueChanged, this, &FillPage::apply);
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
  const QSignalBlocker b1(by_), b2(count_), b3(spacing_), b4(mode_), b5(radius_), b6(minimum_), b7(band_);
  by_->setCurrentIndex(f.spacing > 0.0 ? 1 : 0);
  if (f.spacing > 0.0) spacing_->setValue(f.spacing);
  if (f.targetCount > 0) count_->setValue(static_cast<int>(f.targetCount));
  mode_->setCurrentIndex(mode_->findData(modeOf(f)));
  if (f.radius > 0.0) radius_->setValue(f.radius);
  if (f.minimumRadius > 0.0) minimum_->setValue(f.minimumRadius);
  if (f.shellBand > 0.0) band_->setValue(f.shellBand);
  updateEnabled();
}

void FillPage::updateEnabled() {
  const bool bySpacing = by_->currentData().toString() == QLatin1String("spacing");
  const QString mode = mode_->currentData().toString();
  count_->setEnabled(!bySpacing);
  spacing_->setEnabled(bySpacing);
  radius_->setEnabled(mode == QLatin1String("given") || mode == QLatin1String("fitted"));
  minimum_->setEnabled(mode == QLatin1String("fitted"));
  band_->setEnabled(mode == QLatin1String("shell"));
}

void FillPage::apply() {
  updateEnabled();
  const bool bySpacing = by_->currentData().toString() == QLatin1String("spacing");
  const QString mode = mode_->currentData().toString();
  try {
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
