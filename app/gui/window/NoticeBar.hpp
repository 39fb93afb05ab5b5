#pragma once
// A coloured bar above the 3D view: a message across the whole width and its buttons in a row under
// it, right-aligned (beside several buttons the text was squeezed into a column a few words wide).
// The divergence banner and the step advice are two of them.
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;

namespace clumplab::gui {

struct NoticeColors {
  const char* background;
  const char* text;
  const char* button;
  const char* border;
};

class NoticeBar : public QWidget {
  Q_OBJECT
 protected:
  NoticeBar(const NoticeColors& colors, QWidget* parent);
  // A button at the end of the row, with `tip` as its tooltip.
  QPushButton* addButton(const QString& text, const QString& tip = QString());
  QLabel* text() const { return text_; }

 private:
  QLabel* text_ = nullptr;
  QHBoxLayout* row_ = nullptr;
};

}  // namespace clumplab::gui
