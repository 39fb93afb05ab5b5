#include "gui/wizard/MeshSourcePage.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "gui/document/DocumentLoader.hpp"
#include "gui/document/MeshRepairChoice.hpp"
#include "gui/wizard/JobStatus.hpp"
#include "gui/wizard/WizardModel.hpp"
#include "gui/wizard/WizardText.hpp"
#include "shapes/BuiltinShapes.hpp"

namespace clumplab::gui::wizard {

namespace {
const QString kRecentKey = QStringLiteral("wizard/recentMeshes");
constexpr int kMaxRecent = 8;
}  // namespace

MeshSourcePage::MeshSourcePage(WizardModel& model, QWidget* parent) : QWizardPage(parent), model_(model) {
  setTitle(tr("Choose a mesh"));
  setSubTitle(
      tr("A triangle mesh (STL, OBJ, PLY, … every format Assimp reads) to fill with pebbles, or a built-in "
         "shape. A mesh with holes or seams is filled where its winding number is at least ½. You can also "
         "drop a file on this page."));
  setAcceptDrops(true);

  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit;
  path_->setObjectName(QStringLiteral("meshPath"));
  path_->setPlaceholderText(tr("path of a mesh file"));
  path_->setClearButtonEnabled(true);
  auto* browseButton = new QPushButton(tr("Browse…"));
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browseButton);
  form->addRow(tr("Mesh file:"), fileRow);

  shape_ = new QComboBox;
  shape_->setObjectName(QStringLiteral("builtinShape"));
  shape_->addItem(tr("(none: use the file)"), QString());
  for (const std::string& name : shapes::builtinShapeNames())
    shape_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  form->addRow(tr("or a built-in shape:"), shape_);
  layout->addLayout(form);

  layout->addWidget(new QLabel(tr("Recent meshes (click to choose):")));
  recent_ = new QListWidget;
  recent_->setObjectName(QStringLiteral("recentMeshes"));
  recent_->setMaximumHeight(150);
  layout->addWidget(recent_);

  status_ = new JobStatus(model_.importJob());
  layout->addWidget(status_);
  // Offered here, under the summary that says the mesh is open, and remembered for the file.
  closeHoles_ = new QCheckBox(tr("Close its holes (repair): exact mass properties instead of sampled ones"));
  closeHoles_->setObjectName(QStringLiteral("closeHoles"));
  closeHoles_->setToolTip(repairToolTip());
  closeHoles_->setVisible(false);
  layout->addWidget(closeHoles_);
  layout->addStretch(1);

  connect(browseButton, &QPushButton::clicked, this, &MeshSourcePage::browse);
  connect(path_, &QLineEdit::editingFinished, this, [this] {
    if (!path_->text().trimmed().isEmpty()) chooseFile(path_->text().trimmed());
  });
  connect(shape_, &QComboBox::activated, this, [this] {
    const QString name = shape_->currentData().toString();
    if (!name.isEmpty()) chooseShape(name);
  });
  connect(recent_, &QListWidget::itemClicked, this,
          [this](QListWidgetItem* item) { chooseFile(item->data(Qt::UserRole).toString()); });
  connect(closeHoles_, &QCheckBox::toggled, this, [this](bool repair) {
    model_.setMesh(model_.meshChoice(), model_.scale(), repair);
    rememberRepairChoice(QString::fromStdString(model_.meshChoice().file), repair);
    emit completeChanged();
  });
  connect(&model_, &WizardModel::meshChanged, this, &MeshSourcePage::showResult);
  connect(&model_.importJob(), &BackgroundJob::busyChanged, this, &QWizardPage::completeChanged);
  fillRecent();
}

void MeshSourcePage::initializePage() {
  const MeshChoice& c = model_.meshChoice();
  path_->setText(QString::fromStdString(c.file));
  const int index = shape_->findData(QString::fromStdString(c.shape));
  shape_->setCurrentIndex(std::max(0, index));
  fillRecent();
  showResult();
}

void MeshSourcePage::chooseFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  path_->setText(absolute);
  shape_->setCurrentIndex(0);
  model_.setMesh({absolute.toStdString(), {}}, model_.scale(), repairChosenFor(absolute));
  emit completeChanged();
}

void MeshSourcePage::chooseShape(const QString& name) {
  path_->clear();
  const int index = shape_->findData(name);
  if (index >= 0) shape_->setCurrentIndex(index);
  model_.setMesh({{}, name.toStdString()}, model_.scale(), model_.repair());
  emit completeChanged();
}

bool MeshSourcePage::isComplete() const {
  return model_.meshCurrent() && !model_.importJob().busy();
}

void MeshSourcePage::browse() {
  const QString start = path_->text().isEmpty() ? QString() : QFileInfo(path_->text()).absolutePath();
  const QString file = QFileDialog::getOpenFileName(
      this, tr("Choose a mesh"), start,
      tr("Meshes (%1);;All files (*)").arg(QString::fromStdString(meshFilePatterns())));
  if (!file.isEmpty()) chooseFile(file);
}

void MeshSourcePage::showResult() {
  const auto mesh = model_.mesh();
  const bool current = mesh && model_.meshCurrent();
  {
    const QSignalBlocker block(closeHoles_);
    closeHoles_->setChecked(model_.repair());
  }
  // A mesh from a file with holes, or one whose holes were closed: the choice is the user's.
  closeHoles_->setVisible(current && !mesh->choice.file.empty() &&
                          (mesh->prepared.report.boundaryEdges > 0 || mesh->repair));
  if (current) {
    status_->setSummary(meshSummary(*mesh));
    if (!mesh->choice.file.empty()) {
      addRecentMesh(QString::fromStdString(mesh->choice.file));
      fillRecent();
    }
  } else {
    status_->setSummary(QString());
  }
  emit completeChanged();
}

QStringList MeshSourcePage::recentMeshes() {
  return QSettings().value(kRecentKey).toStringList();
}

void MeshSourcePage::addRecentMesh(const QString& path) {
  QStringList files = recentMeshes();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecent) files.removeLast();
  QSettings().setValue(kRecentKey, files);
}

void MeshSourcePage::fillRecent() {
  recent_->clear();
  for (const QString& f : recentMeshes()) {
    auto* item = new QListWidgetItem(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).path());
    item->setData(Qt::UserRole, f);
    item->setToolTip(f);
    recent_->addItem(item);
  }
  recent_->setEnabled(recent_->count() > 0);
}

void MeshSourcePage::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) {  // a mesh by its extension or its contents; else its reader says why not
      event->acceptProposedAction();
      return;
    }
  }
}

void MeshSourcePage::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) {  // a mesh by its extension or its contents; else its reader says why not
      chooseFile(url.toLocalFile());
      event->acceptProposedAction();
      return;
    }
  }
}

}  // namespace clumplab::gui::wizard
