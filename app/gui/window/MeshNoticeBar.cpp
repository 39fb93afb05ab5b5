#include "gui/window/MeshNoticeBar.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

namespace clumplab::gui {

namespace {
constexpr int kNotesShown = 3;  // the view keeps its room; all of them in the tooltip
}

MeshNoticeBar::MeshNoticeBar(QWidget* parent)
    : NoticeBar({"#12385c", "#e3f0ff", "#1d4f7a", "#5b8fc4"}, parent) {
  repair_ = addButton(tr("Close its holes and reopen"),
                      tr("Closes holes up to the bounding-box diagonal in perimeter, so that the mass "
                         "properties are exact instead of sampled; remembered for this file"));
  connect(repair_, &QPushButton::clicked, this, [this] { emit repairRequested(path_); });
  wizard_ = addButton(tr("Open in the clump wizard"), tr("The mesh's report, units, fill and inertia"));
  connect(wizard_, &QPushButton::clicked, this, [this] { emit wizardRequested(path_); });
  QPushButton* dismiss = addButton(tr("Dismiss"));
  connect(dismiss, &QPushButton::clicked, this, &QWidget::hide);
  hide();
}

void MeshNoticeBar::showNotes(const QString& path, const QStringList& notes, bool holesToClose) {
  path_ = path;
  if (notes.isEmpty()) {
    hide();
    return;
  }
  const QString name = QFileInfo(path).fileName();
  // What the solid is comes first, when the import had to make it up (the winding number's).
  QStringList ordered;
  for (const QString& note : notes) {
    if (note.contains(QStringLiteral("so the solid is")))
      ordered.prepend(note);
    else
      ordered.append(note);
  }
  QStringList lines;
  for (qsizetype k = 0; k < std::min<qsizetype>(ordered.size(), kNotesShown); ++k) {
    QString note = ordered[k];
    if (note.startsWith(name + QStringLiteral(": "))) note.remove(0, name.size() + 2);
    lines << QStringLiteral("• ") + note.toHtmlEscaped();
  }
  if (notes.size() > kNotesShown) lines << tr("… %1 more (point here)").arg(notes.size() - kNotesShown);
  NoticeBar::text()->setText(
      tr("<b>%1 opened as a clump; what the import did:</b><br>").arg(name.toHtmlEscaped()) +
      lines.join(QStringLiteral("<br>")));
  NoticeBar::text()->setToolTip(ordered.join(QLatin1Char('\n')));
  repair_->setVisible(holesToClose);
  show();
}

QString MeshNoticeBar::message() const {
  return NoticeBar::text()->text();
}

}  // namespace clumplab::gui
