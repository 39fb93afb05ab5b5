#pragma once
// What a panel cuts off (tst_gui_parameters, tst_gui_bodies): fields whose value does not fit,
// labels and check boxes narrower than their text, word-wrapped labels shorter than their wrapped
// text or narrower than their longest word, tree columns narrower than a cell's text or beyond the
// view's right edge. Each finding names the widget and the pixels it needs.
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStringList>
#include <QTreeWidget>

namespace clumplab::gui::test {

inline QStringList cutOffText(const QWidget& panel) {
  QStringList found;
  for (const QAbstractSpinBox* field : panel.findChildren<QAbstractSpinBox*>()) {
    const QLineEdit* edit = field->findChild<QLineEdit*>();
    if (!field->isVisible() || edit == nullptr) continue;
    const int needed = edit->fontMetrics().horizontalAdvance(edit->text());
    if (needed > edit->contentsRect().width() - 4)
      found << QStringLiteral("field %1: \"%2\" needs %3 px of %4")
                   .arg(field->objectName(), edit->text())
                   .arg(needed)
                   .arg(edit->contentsRect().width());
  }
  for (const QLabel* label : panel.findChildren<QLabel*>()) {
    if (!label->isVisible() || label->text().isEmpty()) continue;
    if (!label->wordWrap()) {
      if (label->sizeHint().width() > label->width())
        found << QStringLiteral("label \"%1\": %2 px of %3")
                     .arg(label->text())
                     .arg(label->sizeHint().width())
                     .arg(label->width());
      continue;
    }
    // Wrapped: its longest word fits a line (the minimum width), and its lines fit its height.
    if (label->minimumSizeHint().width() > label->width())
      found << QStringLiteral("wrapped label \"%1\": a word needs %2 px of %3")
                   .arg(label->text())
                   .arg(label->minimumSizeHint().width())
                   .arg(label->width());
    if (label->heightForWidth(label->width()) > label->height())
      found << QStringLiteral("wrapped label \"%1\": %2 px high of %3")
                   .arg(label->text())
                   .arg(label->heightForWidth(label->width()))
                   .arg(label->height());
  }
  for (const QCheckBox* box : panel.findChildren<QCheckBox*>()) {
    if (box->isVisible() && box->sizeHint().width() > box->width())
      found << QStringLiteral("check box \"%1\": %2 px of %3")
                   .arg(box->text())
                   .arg(box->sizeHint().width())
                   .arg(box->width());
  }
  for (const QTreeWidget* tree : panel.findChildren<QTreeWidget*>()) {
    if (!tree->isVisible()) continue;
    const int visibleWidth = tree->viewport()->width();
    for (int c = 0; c < tree->columnCount(); ++c) {
      if (tree->header()->isSectionHidden(c)) continue;
      const int right = tree->header()->sectionViewportPosition(c) + tree->header()->sectionSize(c);
      if (right > visibleWidth)
        found << QStringLiteral("column %1 ends at %2 px of %3").arg(c).arg(right).arg(visibleWidth);
      for (int r = 0; r < tree->topLevelItemCount(); ++r) {
        const QTreeWidgetItem* item = tree->topLevelItem(r);
        const int needed = tree->fontMetrics().horizontalAdvance(item->text(c));
        if (needed > tree->header()->sectionSize(c) - 4)
          found << QStringLiteral("cell \"%1\" (column %2): %3 px of %4")
                       .arg(item->text(c))
                       .arg(c)
                       .arg(needed)
                       .arg(tree->header()->sectionSize(c));
      }
    }
  }
  return found;
}

}  // namespace clumplab::gui::test
