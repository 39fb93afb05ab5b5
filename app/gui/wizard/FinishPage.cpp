#include "gui/wizard/FinishPage.hpp"

#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QVBoxLayout>
#include <filesystem>

#include "core/io/TemplateFile.hpp"
#include "core/world/World.hpp"
#include "gui/document/TemplateLibrary.hpp"
#include "gui/widgets/ScientificSpinBox.hpp"
#include "gui/wizard/SpawnPlan.hpp"
#include "gui/wizard/WizardModel.hpp"
#include "gui/wizard/WizardText.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui::wizard {

namespace {
// A template name that is also a safe file name: letters, digits, '-', '_' and '.' kept.
QString fileStem(const QString& name) {
  QString stem;
  for (const QChar c : name)
    stem += (c.isLetterOrNumber() || c == '-' || c == '_' || c == '.') ? c : QChar('-');
  return stem.isEmpty() ? QStringLiteral("clump") : stem;
}

std::array<ScientificSpinBox*, 3> vectorRow(QGridLayout* grid, int row, const QString& label,
                                            const QString& unit, const QString& objectName) {
  grid->addWidget(new QLabel(label), row, 0);
  std::array<ScientificSpinBox*, 3> boxes{};
  for (int a = 0; a < 3; ++a) {
    boxes[static_cast<std::size_t>(a)] = new ScientificSpinBox(unit, -1e6, 1e6, false);
    boxes[static_cast<std::size_t>(a)]->setObjectName(objectName + QChar('x' + a));
    grid->addWidget(boxes[static_cast<std::size_t>(a)], row, a + 1);
  }
  return boxes;
}
}  // namespace

FinishPage::FinishPage(WizardModel& model, sim::SimulationLoop* simulation, QWidget* parent)
    : QWizardPage(parent), model_(model), simulation_(simulation) {
  setTitle(tr("Finish"));
  setSubTitle(
      tr("Name the template, give its density, save it, and add copies to the running scene if "
         "you like. The scene keeps running meanwhile."));
  setFinalPage(true);
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  name_ = new QLineEdit;
  name_->setObjectName(QStringLiteral("templateName"));
  form->addRow(tr("Name:"), name_);
  density_ = new ScientificSpinBox(QStringLiteral("kg/m³"), 1e-3, 1e6, true);
  density_->setObjectName(QStringLiteral("density"));
  form->addRow(tr("Density:"), density_);
  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit;
  path_->setObjectName(QStringLiteral("templatePath"));
  auto* browseButton = new QPushButton(tr("Browse…"));
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browseButton);
  form->addRow(tr("Template file:"), fileRow);
  layout->addLayout(form);

  copies_ = new QGroupBox(tr("Add copies to the running scene"));
  copies_->setObjectName(QStringLiteral("addCopies"));
  copies_->setCheckable(true);
  copies_->setChecked(simulation_ != nullptr);
  copies_->setEnabled(simulation_ != nullptr);
  auto* grid = new QGridLayout(copies_);
  grid->addWidget(new QLabel(tr("Copies:")), 0, 0);
  count_ = new QSpinBox;
  count_->setObjectName(QStringLiteral("copies"));
  count_->setRange(1, 10000);
  count_->setValue(5);
  grid->addWidget(count_, 0, 1);
  randomOrientation_ = new QCheckBox(tr("random orientations"));
  randomOrientation_->setObjectName(QStringLiteral("randomOrientation"));
  randomOrientation_->setChecked(true);
  grid->addWidget(randomOrientation_, 0, 2, 1, 2);
  for (int a = 0; a < 3; ++a)
    grid->addWidget(new QLabel(QString(QChar('x' + a))), 1, a + 1, Qt::AlignHCenter);
  lower_ = vectorRow(grid, 2, tr("Region from:"), QStringLiteral("m"), QStringLiteral("regionMin"));
  upper_ = vectorRow(grid, 3, tr("Region to:"), QStringLiteral("m"), QStringLiteral("regionMax"));
  velocity_ = vectorRow(grid, 4, tr("Velocity:"), QStringLiteral("m/s"), QStringLiteral("velocity"));
  spin_ = vectorRow(grid, 5, tr("Angular velocity:"), QStringLiteral("rad/s"), QStringLiteral("spin"));
  auto* regionNote =
      new QLabel(tr("Each copy starts at a random point of the region (by default a box "
                    "above the scene's bodies and floor), lifted clear of anything it would overlap."));
  regionNote->setWordWrap(true);
  grid->addWidget(regionNote, 6, 0, 1, 4);
  grid->setColumnStretch(1, 1);
  grid->setColumnStretch(2, 1);
  grid->setColumnStretch(3, 1);
  layout->addWidget(copies_);
  message_ = new QLabel;
  message_->setObjectName(QStringLiteral("finishMessage"));
  styleAsError(message_);
  layout->addWidget(message_);
  layout->addStretch(1);

  connect(name_, &QLineEdit::textEdited, this, &FinishPage::nameEdited);
  connect(path_, &QLineEdit::textEdited, this, [this] { pathEdited_ = true; });
  connect(browseButton, &QPushButton::clicked, this, &FinishPage::browse);
  connect(density_, &QDoubleSpinBox::valueChanged, this, [this](double d) { model_.density = d; });
}

void FinishPage::initializePage() {
  message_->clear();
  if (model_.name.empty()) {
    const auto mesh = model_.mesh();
    model_.name =
        mesh ? std::filesystem::path(mesh->choice.file.empty() ? mesh->choice.shape : mesh->choice.file)
                   .stem()
                   .string()
             : "clump";
  }
  name_->setText(QString::fromStdString(model_.name));
  {
    const QSignalBlocker blocker(density_);
    density_->setValue(model_.density);
  }
  pathEdited_ = !model_.templatePath.isEmpty();
  if (pathEdited_) {
    path_->setText(model_.templatePath);
  } else {
    nameEdited();
  }
  // The default region sits over the scene as it is now (the newest frame the thread published).
  const auto inertia = model_.inertia();
  if (simulation_ && inertia) {
    double radius = 0.0;  // bounding radius about the centre of the pebbles' box, a safe bound
    Vec3 lower, upper;
    pebbleBounds(inertia->clump->fill.pebbles, lower, upper);
    radius = 0.5 * (upper - lower).norm();
    const SpawnRegion region = defaultSpawnRegion(simulation_->frame().snapshot, radius, count_->value());
    for (std::size_t a = 0; a < 3; ++a) {
      lower_[a]->setValue(region.lower[static_cast<int>(a)]);
      upper_[a]->setValue(region.upper[static_cast<int>(a)]);
    }
  }
}

void FinishPage::nameEdited() {
  model_.name = name_->text().trimmed().toStdString();
  if (!pathEdited_)
    path_->setText(userTemplateFolder() + QChar('/') + fileStem(name_->text().trimmed()) +
                   QStringLiteral(".json"));
}

void FinishPage::browse() {
  const QString file = QFileDialog::getSaveFileName(this, tr("Save the template as"), path_->text(),
                                                    tr("Clump templates (*.json);;All files (*)"));
  if (file.isEmpty()) return;
  path_->setText(file);
  pathEdited_ = true;
}

bool FinishPage::validatePage() {
  message_->clear();
  const auto inertia = model_.inertia();
  if (!inertia || !model_.inertiaCurrent()) {
    message_->setText(tr("The mass properties are not computed yet: go back to the inertia page."));
    return false;
  }
  const QString name = name_->text().trimmed();
  const QString path = path_->text().trimmed();
  if (name.isEmpty()) {
    message_->setText(tr("Give the template a name."));
    return false;
  }
  if (path.isEmpty()) {
    message_->setText(tr("Choose where to save the template file."));
    return false;
  }
  try {
    const ClumpTemplate t =
        wizardTemplate(*inertia, model_.method, name.toStdString(), density_->value(), model_.contactLaw);
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
      message_->setText(tr("Could not create the folder %1 for the template file.").arg(folder));
      return false;
    }
    saveTemplateFile(t, path.toStdString());
    savedPath_ = path;
    model_.templatePath = path;
    int copies = 0;
    if (simulation_ && copies_->isChecked()) {
      SpawnRequest request;
      request.count = count_->value();
      for (int a = 0; a < 3; ++a) {
        const auto k = static_cast<std::size_t>(a);
        request.region.lower[a] = std::min(lower_[k]->value(), upper_[k]->value());
        request.region.upper[a] = std::max(lower_[k]->value(), upper_[k]->value());
        request.velocity[a] = velocity_[k]->value();
        request.angularVelocity[a] = spin_[k]->value();
      }
      request.randomOrientation = randomOrientation_->isChecked();
      request.seed = QRandomGenerator::global()->generate64();
      auto clump = std::make_shared<const ClumpTemplate>(t);
      if (spawnCopies_) {
        spawnCopies_(spawnBodies(request), std::move(clump));
      } else {
        simulation_->spawn(spawnBodies(request), std::move(clump));
      }
      copies = request.count;
    }
    emit templateSaved(path, copies);
    return true;
  } catch (const std::exception& e) {
    message_->setText(tr("The template was not saved: %1").arg(QString::fromStdString(e.what())));
    return false;
  }
}

}  // namespace clumplab::gui::wizard
