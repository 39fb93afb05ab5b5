#include "gui/wizard/InertiaPage.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <numbers>

#include "gui/wizard/JobStatus.hpp"
#include "gui/wizard/WizardModel.hpp"
#include "gui/wizard/WizardText.hpp"

namespace clumplab::gui::wizard {

namespace {
const char* kMethodTitles[] = {QT_TRANSLATE_NOOP("InertiaPage", "mesh (exact)"),
                               QT_TRANSLATE_NOOP("InertiaPage", "voxels of the pebbles"),
                               QT_TRANSLATE_NOOP("InertiaPage", "Monte Carlo of the pebbles"),
                               QT_TRANSLATE_NOOP("InertiaPage", "pebble sum")};
const char* kRowTitles[] = {"volume",           "mass [kg]",         "centre x",   "centre y",
                            "centre z",         "I1 [kg m²]",        "I2 [kg m²]", "I3 [kg m²]",
                            "axes vs mesh [°]", "Dzhanibekov margin"};

QString sci(double v) {
  return QLocale().toString(v, 'g', 5);
}
QString percent(double relative) {
  return QStringLiteral("%1%2%").arg(relative >= 0 ? QStringLiteral("+") : QString(),
                                     QLocale().toString(100.0 * relative, 'f', 2));
}
}  // namespace

InertiaPage::InertiaPage(WizardModel& model, QWidget* parent) : QWizardPage(parent), model_(model) {
  setTitle(tr("Inertia"));
  setSubTitle(tr("Mass properties by every method, side by side; the template uses the one you choose. "
                 "Errors of the clump against the mesh beyond %1% in volume, %2% in a principal moment or "
                 "%3° in a principal axis are red.")
                  .arg(100 * kVolumeErrorLimit)
                  .arg(100 * kMomentErrorLimit)
                  .arg(kAxisErrorLimitDeg));
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  method_ = new QComboBox;
  method_->setObjectName(QStringLiteral("inertiaMethod"));
  method_->addItem(tr("mesh: the solid the mesh bounds, exact (MClump mode 3)"), QStringLiteral("mesh"));
  method_->addItem(tr("voxels of the pebble union"), QStringLiteral("voxel"));
  method_->addItem(tr("Monte Carlo of the pebble union"), QStringLiteral("monte-carlo"));
  method_->addItem(tr("pebble sum (overlaps counted twice)"), QStringLiteral("pebbles"));
  form->addRow(tr("The template's mass properties from:"), method_);
  samples_ = new QSpinBox;
  samples_->setObjectName(QStringLiteral("samples"));
  samples_->setRange(1000, 100'000'000);
  samples_->setSingleStep(100'000);
  samples_->setSuffix(tr(" points"));
  samples_->setGroupSeparatorShown(true);
  form->addRow(tr("Monte Carlo (Halton):"), samples_);
  layout->addLayout(form);

  table_ = new QTableWidget(RowCount, 4);
  table_->setObjectName(QStringLiteral("inertiaTable"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  QStringList rows;
  for (const char* r : kRowTitles) rows << tr(r);
  table_->setVerticalHeaderLabels(rows);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  layout->addWidget(table_);
  summary_ = new QLabel;
  summary_->setObjectName(QStringLiteral("inertiaSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  status_ = new JobStatus(model_.inertiaJob());
  layout->addWidget(status_);
  layout->addStretch(1);

  connect(method_, &QComboBox::currentIndexChanged, this, [this] {
    model_.method = inertiaMethodFromKey(method_->currentData().toString().toStdString());
    showResult();
  });
  connect(samples_, &QSpinBox::valueChanged, this, [this](int n) {
    model_.setSamples(n);
    model_.requestInertia(WizardModel::kDebounceMs);
    emit completeChanged();
  });
  connect(&model_, &WizardModel::inertiaChanged, this, &InertiaPage::showResult);
  connect(&model_.inertiaJob(), &BackgroundJob::busyChanged, this, &QWizardPage::completeChanged);
}

void InertiaPage::initializePage() {
  {
    const QSignalBlocker b1(method_), b2(samples_);
    method_->setCurrentIndex(method_->findData(QString::fromLatin1(inertiaMethodKey(model_.method))));
    samples_->setValue(static_cast<int>(model_.samples()));
  }
  showResult();
  model_.requestInertia();
}

bool InertiaPage::isComplete() const {
  return model_.inertiaCurrent() && !model_.inertiaJob().busy();
}

void InertiaPage::showResult() {
  const auto result = model_.inertia();
  const auto chosen = static_cast<int>(model_.method);
  QStringList headers;
  for (int c = 0; c < 4; ++c)
    headers << (c == chosen ? QStringLiteral("✔ ") : QString()) + tr(kMethodTitles[c]);
  table_->setHorizontalHeaderLabels(headers);
  table_->clearContents();
  if (!result || result->clump != model_.clump()) {
    summary_->clear();
    return;
  }
  const MassProperties mesh =
      atDensity(result->unitDensity[0], model_.density);  // what each column is against
  for (int c = 0; c < 4; ++c) showMethodColumn(*result, mesh, c, chosen);
  summary_->setText(summaryText(*result));
  emit completeChanged();
}

void InertiaPage::showMethodColumn(const InertiaComparison& result, const MassProperties& mesh, int c,
                                   int chosen) {
  const double density = model_.density;
  const PrincipalFrame& meshFrame = result.frames[0];
  const shapes::MeshReport& report = result.clump->mesh->prepared.report;
  const double size = (report.upper - report.lower).maxCoeff();  // centres are written to 1/1000 of it
  const MassProperties m = atDensity(result.unitDensity[static_cast<std::size_t>(c)], density);
  const PrincipalFrame frame = result.frames[static_cast<std::size_t>(c)];
  const Vec3 moments = frame.moments * density;
  const auto set = [&](int row, const QString& text, const QString& problem = QString()) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!problem.isEmpty()) {
      item->setForeground(QColor(198, 40, 40));
      QFont font = item->font();
      font.setBold(true);
      item->setFont(font);
      item->setToolTip(problem);
    }
    if (c == chosen) item->setBackground(QColor(120, 160, 230, 40));
    table_->setItem(row, c, item);
  };
  const bool compared = c > 0;
  const auto relative = [&](double error) {
    return compared ? QStringLiteral("  (") + percent(error) + QStringLiteral(")") : QString();
  };
  const double volumeError = (m.volume - mesh.volume) / mesh.volume;
  const QString volumeProblem = compared && std::abs(volumeError) > kVolumeErrorLimit
                                    ? tr("The volume differs from the mesh's by %1 (limit ±%2%)")
                                          .arg(percent(volumeError))
                                          .arg(100 * kVolumeErrorLimit)
                                    : QString();
  set(Volume, volumeText(m.volume, mesh.volume) + relative(volumeError), volumeProblem);  // one unit a row
  set(Mass, sci(m.mass) + relative(volumeError), volumeProblem);
  for (int a = 0; a < 3; ++a) {
    QString text = lengthText(m.centerOfMass[a], size);
    if (m.centerOfMassError[a] > 0.0)
      text += QStringLiteral(" ± ") + lengthText(m.centerOfMassError[a], size);
    set(CentreX + a, text);
  }
  for (int a = 0; a < 3; ++a) {
    const double error = (frame.moments[a] - meshFrame.moments[a]) / meshFrame.moments[a];
    set(I1 + a, sci(moments[a]) + relative(error),
        compared && std::abs(error) > kMomentErrorLimit ? tr("I%1 differs from the mesh's by %2 (limit ±%3%)")
                                                              .arg(a + 1)
                                                              .arg(percent(error))
                                                              .arg(100 * kMomentErrorLimit)
                                                        : QString());
  }
  const double angle = shapes::axisMisalignmentDeg(meshFrame, frame);
  set(AxisAngle, compared ? QLocale().toString(angle, 'f', 2) : QStringLiteral("—"),
      compared && angle > kAxisErrorLimitDeg ? tr("A principal axis is %1° off the mesh's (limit %2°)")
                                                   .arg(angle, 0, 'f', 1)
                                                   .arg(kAxisErrorLimitDeg)
                                             : QString());
  set(Margin, QLocale().toString(shapes::dzhanibekovMargin(frame.moments), 'f', 3));
}

QString InertiaPage::summaryText(const InertiaComparison& result) const {
  const auto chosen = static_cast<int>(model_.method);
  const ClumpMetrics& q = result.metrics;
  const double chosenMargin =
      shapes::dzhanibekovMargin(result.frames[static_cast<std::size_t>(chosen)].moments);
  return tr("Dzhanibekov margin (I2 − I1)/(I3 − I1): mesh %1, clump (%2) %3 — near ½ the flip about the "
            "intermediate axis is most pronounced, near 0 or 1 hardly any.\n"
            "Pebble union against the mesh: Dice coefficient %4, largest protrusion %5, largest gap %6 "
            "(sampled); "
            "measured by %7. Smallest pebble r %8. Mass at %9 kg/m³ (set on the next page).")
      .arg(QLocale().toString(q.meshDzhanibekovMargin, 'f', 3),
           QString::fromLatin1(inertiaMethodKey(model_.method)), QLocale().toString(chosenMargin, 'f', 3),
           QLocale().toString(q.dice, 'f', 4), lengthText(q.largestProtrusion), lengthText(q.largestGap),
           QString::fromStdString(q.clumpMethod), lengthText(q.smallestRadius),
           QLocale().toString(model_.density, 'g', 6));
}

}  // namespace clumplab::gui::wizard
