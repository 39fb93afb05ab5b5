#include "gui/lessons/LessonDock.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace clumplab::gui {

QString lessonHtml(const Lesson& lesson) {
  QString html = QStringLiteral("<div style='line-height: 135%;'>");
  for (const QString& p : lesson.paragraphs)
    html += QStringLiteral("<p style='margin-bottom: 10px;'>%1</p>").arg(p.toHtmlEscaped());
  return html + QStringLiteral("</div>");
}

LessonDock::LessonDock(QWidget* parent) : QDockWidget(tr("Lessons"), parent) {
  setObjectName(QStringLiteral("lessonDock"));
  pages_ = new QStackedWidget;

  auto* browse = new QWidget;
  auto* browseLayout = new QVBoxLayout(browse);
  browseLayout->setContentsMargins(6, 6, 6, 6);
  auto* intro =
      new QLabel(tr("Choose a lesson: its scene opens with the view and plots that show its point."));
  intro->setWordWrap(true);
  browseLayout->addWidget(intro);
  list_ = new QListWidget;
  list_->setWordWrap(true);
  list_->setSpacing(3);
  list_->setAlternatingRowColors(true);
  browseLayout->addWidget(list_, 1);
  auto* open = new QPushButton(tr("Open lesson"));
  open->setDefault(true);
  browseLayout->addWidget(open);
  connect(open, &QPushButton::clicked, this, [this] {
    if (list_->currentRow() >= 0) emit openRequested(list_->currentRow());
  });
  connect(list_, &QListWidget::itemActivated, this, [this] { emit openRequested(list_->currentRow()); });
  pages_->addWidget(browse);

  auto* lesson = new QWidget;
  auto* lessonLayout = new QVBoxLayout(lesson);
  lessonLayout->setContentsMargins(6, 6, 6, 6);
  title_ = new QLabel;
  title_->setWordWrap(true);
  QFont big = title_->font();
  big.setPointSizeF(big.pointSizeF() * 1.3);
  big.setBold(true);
  title_->setFont(big);
  lessonLayout->addWidget(title_);
  text_ = new QTextBrowser;
  text_->setOpenExternalLinks(true);
  text_->setFrameShape(QFrame::NoFrame);
  lessonLayout->addWidget(text_, 1);
  auto* buttons = new QHBoxLayout;
  auto* back = new QPushButton(tr("◀ All lessons"));
  auto* restart = new QPushButton(tr("Restart"));
  next_ = new QPushButton(tr("Next ▶"));
  buttons->addWidget(back);
  buttons->addStretch(1);
  buttons->addWidget(restart);
  buttons->addWidget(next_);
  lessonLayout->addLayout(buttons);
  connect(back, &QPushButton::clicked, this, &LessonDock::closeRequested);
  connect(restart, &QPushButton::clicked, this, [this] { emit restartRequested(current_); });
  connect(next_, &QPushButton::clicked, this, [this] {
    if (current_ + 1 < static_cast<int>(lessons_.size())) emit openRequested(current_ + 1);
  });
  pages_->addWidget(lesson);
  setWidget(pages_);
}

void LessonDock::setLessons(std::vector<Lesson> lessons) {
  lessons_ = std::move(lessons);
  list_->clear();
  for (const Lesson& l : lessons_) {
    auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(l.title, l.summary));
    item->setToolTip(l.summary);
    list_->addItem(item);
  }
  if (!lessons_.empty()) list_->setCurrentRow(0);
  showLesson(-1);
}

void LessonDock::showLesson(int index) {
  current_ = index >= 0 && index < static_cast<int>(lessons_.size()) ? index : -1;
  if (current_ < 0) {
    pages_->setCurrentIndex(0);
    return;
  }
  const Lesson& l = lessons_[static_cast<std::size_t>(current_)];
  title_->setText(l.title);
  text_->setHtml(lessonHtml(l));
  next_->setEnabled(current_ + 1 < static_cast<int>(lessons_.size()));
  list_->setCurrentRow(current_);
  pages_->setCurrentIndex(1);
}

}  // namespace clumplab::gui
