#pragma once
// The lesson panel: with no lesson open, the list of lessons (title and one line each) to choose
// from; with one open, its title and text beside the view, and buttons to restart it, go on to the
// next one, or go back to the list. MainWindow does the opening (scene, view, plots).
#include <QDockWidget>
#include <vector>

#include "gui/lessons/LessonCatalog.hpp"

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace clumplab::gui {

class LessonDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit LessonDock(QWidget* parent = nullptr);

  void setLessons(std::vector<Lesson> lessons);
  const std::vector<Lesson>& lessons() const { return lessons_; }
  // Shows lesson `index` as the open one (-1: the list).
  void showLesson(int index);
  int currentLesson() const { return current_; }
  QListWidget* list() const { return list_; }
  QTextBrowser* text() const { return text_; }

 signals:
  void openRequested(int index);
  void restartRequested(int index);
  void closeRequested();

 private:
  std::vector<Lesson> lessons_;
  int current_ = -1;
  QStackedWidget* pages_ = nullptr;
  QListWidget* list_ = nullptr;
  QLabel* title_ = nullptr;
  QTextBrowser* text_ = nullptr;
  QPushButton* next_ = nullptr;
};

// The lesson's paragraphs as the HTML the panel shows.
QString lessonHtml(const Lesson& lesson);

}  // namespace clumplab::gui
