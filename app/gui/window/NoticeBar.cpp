#include "gui/window/NoticeBar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace clumplab::gui {

NoticeBar::NoticeBar(const NoticeColors& colors, QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  setStyleSheet(QStringLiteral("QWidget { background: %1; color: %2; } "
                               "QPushButton { background: %3; border: 1px solid %4; padding: 4px 10px; }")
                    .arg(QLatin1String(colors.background), QLatin1String(colors.text),
                         QLatin1String(colors.button), QLatin1String(colors.border)));
  auto* column = new QVBoxLayout(this);
  text_ = new QLabel;
  text_->setWordWrap(true);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  column->addWidget(text_);
  row_ = new QHBoxLayout;
  row_->addStretch(1);
  column->addLayout(row_);
  hide();
}

QPushButton* NoticeBar::addButton(const QString& text, const QString& tip) {
  auto* button = new QPushButton(text);
  if (!tip.isEmpty()) button->setToolTip(tip);
  row_->addWidget(button);
  return button;
}

}  // namespace clumplab::gui
