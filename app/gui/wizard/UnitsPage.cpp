#include "gui/wizard/UnitsPage.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "gui/document/MeshRepairChoice.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/wizard/ClumpPreview.hpp"
#include "gui/wizard/JobStatus.hpp"
#include "gui/wizard/WizardModel.hpp"
#include "gui/wizard/WizardText.hpp"

namespace clumplab::gui::wizard {

UnitsPage::UnitsPage(WizardModel& model, QWidget* parent) : QWizardPage(parent), model_(model) {
  setTitle(tr("Units and orientation"));
  setSubTitle(
      tr("Mesh files carry no units: say what one unit of the file is. The preview shows the "
         "mesh in its own axes."));

  auto* columns = new QHBoxLayout(this);
  auto* left = new QVBoxLayout;
  auto* form = new QFormLayout;
  unit_ = new QComboBox;
  unit_->setObjectName(QStringLiteral("unit"));
  unit_->addItem(tr("metres (scale 1)"), QStringLiteral("m"));
  unit_->addItem(tr("centimetres (scale 0.01)"), QStringLiteral("cm"));
  unit_->addItem(tr("millimetres (scale 0.001)"), QStringLiteral("mm"));
  unit_->addItem(tr("custom scale"), QStringLiteral("custom"));
  form->addRow(tr("One file unit is:"), unit_);
  custom_ = new ScientificSpinBox(tr("m per unit"), 1e-9, 1e6, true);
  custom_->setObjectName(QStringLiteral("customScale"));
  custom_->setValue(1.0);
  form->addRow(tr("Scale:"), custom_);
  repair_ = new QCheckBox(tr("Repair: close small holes"));
  repair_->setObjectName(QStringLiteral("repair"));
  repair_->setToolTip(repairToolTip());
  form->addRow(QString(), repair_);
  left->addLayout(form);
  hint_ = new QLabel;
  hint_->setWordWrap(true);
  hint_->setStyleSheet(QStringLiteral("color: #b26a00;"));
  left->addWidget(hint_);
  report_ = new QLabel;
  report_->setObjectName(QStringLiteral("meshReport"));
  report_->setWordWrap(true);
  report_->setTextFormat(Qt::RichText);
  report_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  report_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  left->addWidget(report_);
  status_ = new JobStatus(model_.importJob());
  left->addWidget(status_);
  left->addStretch(1);
  columns->addLayout(left, 2);
  preview_ = new ClumpPreview;
  ClumpPreview::addAsColumn(preview_, columns);

  connect(unit_, &QComboBox::currentIndexChanged, this, &UnitsPage::apply);
  connect(custom_, &QDoubleSpinBox::valueChanged, this, &UnitsPage::apply);
  connect(repair_, &QCheckBox::toggled, this, &UnitsPage::apply);
  connect(&model_, &WizardModel::meshChanged, this, &UnitsPage::showResult);
  connect(&model_.importJob(), &BackgroundJob::busyChanged, this, &QWizardPage::completeChanged);
}

void UnitsPage::setUnit(const QString& unit, double customScale) {
  const int index = unit_->findData(unit);
  if (index < 0) return;
  custom_->setValue(customScale);
  unit_->setCurrentIndex(index);
  apply();
}

double UnitsPage::chosenScale() const {
  const QString unit = unit_->currentData().toString();
  if (unit == QLatin1String("cm")) return 0.01;
  if (unit == QLatin1String("mm")) return 0.001;
  if (unit == QLatin1String("custom")) return custom_->value();
  return 1.0;
}

void UnitsPage::initializePage() {
  const QSignalBlocker b1(unit_), b2(custom_), b3(repair_);
  const double s = model_.scale();
  const QString unit = s == 1.0     ? QStringLiteral("m")
                       : s == 0.01  ? QStringLiteral("cm")
                       : s == 0.001 ? QStringLiteral("mm")
                                    : QStringLiteral("custom");
  unit_->setCurrentIndex(unit_->findData(unit));
  custom_->setValue(s);
  custom_->setEnabled(unit == QLatin1String("custom"));
  repair_->setChecked(model_.repair());
  showResult();
}

void UnitsPage::apply() {
  const bool custom = unit_->currentData().toString() == QLatin1String("custom");
  custom_->setEnabled(custom);
  if (!custom) {  // the disabled box shows the unit's scale (and a custom scale starts from it)
    const QSignalBlocker block(custom_);
    custom_->setValue(chosenScale());
  }
  model_.setMesh(model_.meshChoice(), chosenScale(), repair_->isChecked(), WizardModel::kDebounceMs);
  rememberRepairChoice(QString::fromStdString(model_.meshChoice().file), repair_->isChecked());
  emit completeChanged();
}

void UnitsPage::showResult() {
  const auto mesh = model_.mesh();
  if (!mesh) {
    report_->clear();
    hint_->clear();
    return;
  }
  report_->setText(meshReportHtml(*mesh));
  preview_->setMesh(mesh->prepared.mesh);
  // A clump meant for a desktop sandbox is millimetres to a metre across; far outside that range
  // the unit is most likely wrong.
  const double extent = (mesh->prepared.report.upper - mesh->prepared.report.lower).maxCoeff();
  if (extent > 5.0) {
    hint_->setText(tr("The mesh is %1 across: if the file is in millimetres, choose millimetres.")
                       .arg(lengthText(extent)));
  } else if (extent < 1e-4) {
    hint_->setText(tr("The mesh is only %1 across: is the scale right?").arg(lengthText(extent)));
  } else {
    hint_->clear();
  }
  hint_->setVisible(!hint_->text().isEmpty());
  emit completeChanged();
}

bool UnitsPage::isComplete() const {
  return model_.meshCurrent() && !model_.importJob().busy();
}

}  // namespace clumplab::gui::wizard
