#include "gui/docks/TemplateLibraryDock.hpp"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QDrag>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

namespace clumplab::gui {

namespace {
constexpr int kPathRole = Qt::UserRole + 1;

QString massText(double kilograms) {
  if (kilograms >= 1.0) return QStringLiteral("%1 kg").arg(kilograms, 0, 'g', 3);
  if (kilograms >= 1e-3) return QStringLiteral("%1 g").arg(kilograms * 1e3, 0, 'g', 3);
  return QStringLiteral("%1 mg").arg(kilograms * 1e6, 0, 'g', 3);
}

// A list whose items drag out as template files (and as file URLs, for other programs).
class TemplateList : public QListWidget {
 public:
  using QListWidget::QListWidget;

 protected:
  QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override {
    if (items.isEmpty()) return nullptr;
    const QString path = items.front()->data(kPathRole).toString();
    if (path.isEmpty() || items.front()->data(Qt::UserRole).toBool() == false) return nullptr;
    auto* payload = new QMimeData;
    payload->setData(QString::fromLatin1(kTemplateMimeType), path.toUtf8());
    payload->setUrls({QUrl::fromLocalFile(path)});
    return payload;
  }
  QStringList mimeTypes() const override { return {QString::fromLatin1(kTemplateMimeType)}; }
};
}  // namespace

TemplateLibraryDock::TemplateLibraryDock(QWidget* parent) : QDockWidget(tr("Templates"), parent) {
  setObjectName(QStringLiteral("templateLibrary"));
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QToolBar;
  bar->setIconSize(QSize(16, 16));
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  connect(bar->addAction(tr("Import…")), &QAction::triggered, this, &TemplateLibraryDock::importFiles);
  connect(bar->addAction(tr("Open folder")), &QAction::triggered, this, [this] {
    QDir().mkpath(library_.folder());
    QDesktopServices::openUrl(QUrl::fromLocalFile(library_.folder()));
  });
  connect(bar->addAction(tr("Refresh")), &QAction::triggered, this, &TemplateLibraryDock::refresh);
  layout->addWidget(bar);
  list_ = new TemplateList;
  list_->setIconSize(QSize(TemplateLibrary::kThumbnailPixels, TemplateLibrary::kThumbnailPixels));
  list_->setDragEnabled(true);
  list_->setDragDropMode(QAbstractItemView::DragOnly);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  // A grid of thumbnails with the name, pebble count and mass beneath: many fit in a small panel.
  list_->setViewMode(QListView::IconMode);
  list_->setMovement(QListView::Static);
  list_->setResizeMode(QListView::Adjust);
  list_->setWrapping(true);
  list_->setWordWrap(true);
  list_->setGridSize(QSize(TemplateLibrary::kThumbnailPixels + 60, TemplateLibrary::kThumbnailPixels + 56));
  list_->setSpacing(2);
  list_->setUniformItemSizes(true);
  list_->setContextMenuPolicy(Qt::CustomContextMenu);
  list_->setToolTip(
      tr("Drag a template into the 3D view to spawn it there; double-click spawns it at the centre"));
  layout->addWidget(list_, 1);
  empty_ = new QLabel;
  empty_->setWordWrap(true);
  empty_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  empty_->setStyleSheet(QStringLiteral("color: palette(mid); padding: 8px;"));
  empty_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  layout->addWidget(empty_, 1);
  setWidget(body);

  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    if (item->data(Qt::UserRole).toBool()) emit spawnRequested(pathOf(item));
  });
  connect(list_, &QWidget::customContextMenuRequested, this, &TemplateLibraryDock::showMenu);
  rescan_.setSingleShot(true);
  rescan_.setInterval(300);
  connect(&rescan_, &QTimer::timeout, this, &TemplateLibraryDock::refresh);
  connect(&watcher_, &QFileSystemWatcher::directoryChanged, &rescan_, qOverload<>(&QTimer::start));
  connect(&watcher_, &QFileSystemWatcher::fileChanged, &rescan_, qOverload<>(&QTimer::start));
  refresh();
}

void TemplateLibraryDock::setFolder(const QString& folder) {
  library_.setFolder(folder);
  refresh();
}

QString TemplateLibraryDock::pathOf(const QListWidgetItem* item) const {
  return item ? item->data(kPathRole).toString() : QString();
}

void TemplateLibraryDock::refresh() {
  library_.refresh();
  if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
  if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
  // A library folder that does not exist yet (no template saved so far) is watched through its
  // nearest existing ancestor: the first template the wizard saves shows without a Refresh.
  QString watched = library_.folder();
  while (!watched.isEmpty() && !QFileInfo(watched).isDir()) {
    const QString up = QFileInfo(watched).path();
    if (up == watched) break;
    watched = up;
  }
  if (QFileInfo(watched).isDir()) watcher_.addPath(watched);
  const QString selected = pathOf(list_->currentItem());
  list_->clear();
  for (const LibraryEntry& e : library_.entries()) {
    watcher_.addPath(e.path);
    auto* item = new QListWidgetItem;
    item->setData(kPathRole, e.path);
    item->setData(Qt::UserRole, e.clump != nullptr);
    if (e.clump) {
      const ClumpTemplate& t = *e.clump;
      item->setIcon(QIcon(QPixmap::fromImage(e.thumbnail)));
      item->setText(QStringLiteral("%1\n%2 pebbles\n%3")
                        .arg(QString::fromStdString(t.name).isEmpty() ? QFileInfo(e.path).completeBaseName()
                                                                      : QString::fromStdString(t.name))
                        .arg(t.pebbles.size())
                        .arg(massText(t.mass)));
      QString tip = tr("%1\nbounding radius %2 mm · principal moments %3, %4, %5 kg m²\ninertia: %6")
                        .arg(QDir::toNativeSeparators(e.path))
                        .arg(t.boundingRadius * 1e3, 0, 'g', 4)
                        .arg(t.principalMoments.x(), 0, 'g', 4)
                        .arg(t.principalMoments.y(), 0, 'g', 4)
                        .arg(t.principalMoments.z(), 0, 'g', 4)
                        .arg(QString::fromStdString(t.inertiaMethod));
      if (!t.sourceMesh.empty()) tip += tr("\nmade from %1").arg(QString::fromStdString(t.sourceMesh));
      if (t.metrics) tip += tr("\nvolume error %1%").arg(100.0 * t.metrics->volumeError, 0, 'f', 2);
      item->setToolTip(tip);
    } else {
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
      item->setText(QStringLiteral("%1\n%2").arg(QFileInfo(e.path).fileName(), tr("cannot be read")));
      item->setToolTip(e.error);
      item->setFlags(item->flags() & ~Qt::ItemIsDragEnabled);
    }
    list_->addItem(item);
    if (e.path == selected) list_->setCurrentItem(item);
  }
  // Empty: the text takes the list's room, the folder's path free to wrap after each separator.
  const bool empty = library_.entries().empty();
  list_->setVisible(!empty);
  empty_->setVisible(empty);
  QString folder = QDir::toNativeSeparators(library_.folder());
  folder.replace(QDir::separator(), QString(QDir::separator()) + QChar(0x200B));  // zero-width space
  empty_->setText(
      tr("No templates yet. The clump wizard saves them here, or import template files:\n%1").arg(folder));
}

void TemplateLibraryDock::importFiles() {
  const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import templates"), QDir::homePath(),
                                                          tr("Template files (*.json);;All files (*)"));
  QStringList errors;
  for (const QString& file : files) {
    QString error;
    if (library_.import(file, &error).isEmpty()) errors << error;
  }
  refresh();
  if (!errors.isEmpty())
    QMessageBox::warning(this, tr("Import templates"), errors.join(QStringLiteral("\n\n")));
}

void TemplateLibraryDock::showMenu(const QPoint& at) {
  QListWidgetItem* item = list_->itemAt(at);
  if (!item) return;
  const QString path = pathOf(item);
  const bool readable = item->data(Qt::UserRole).toBool();
  QMenu menu(this);
  QAction* spawn = menu.addAction(tr("Spawn at the centre of the view"));
  spawn->setEnabled(readable);
  QAction* refine = menu.addAction(tr("Refine in the clump wizard…"));
  refine->setEnabled(readable);
  QAction* reveal = menu.addAction(tr("Show in folder"));
  menu.addSeparator();
  QAction* remove = menu.addAction(tr("Move to trash…"));
  QAction* chosen = menu.exec(list_->viewport()->mapToGlobal(at));
  if (chosen == spawn) {
    emit spawnRequested(path);
  } else if (chosen == refine) {
    emit refineRequested(path);
  } else if (chosen == reveal) {
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(path).absolutePath()));
  } else if (chosen == remove) {
    if (QMessageBox::question(this, tr("Templates"),
                              tr("Move %1 to the trash?").arg(QFileInfo(path).fileName())) !=
        QMessageBox::Yes)
      return;
    if (!QFile::moveToTrash(path)) {
      QMessageBox::warning(this, tr("Templates"), tr("%1: cannot be moved to the trash").arg(path));
    }
    refresh();
  }
}

}  // namespace clumplab::gui
