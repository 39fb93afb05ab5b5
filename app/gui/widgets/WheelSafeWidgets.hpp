#pragma once
// Input widgets that ignore the mouse wheel unless they have keyboard focus, so scrolling a panel
// never edits a parameter it passes over (the wheel event goes on to the scroll area).
#include <QComboBox>
#include <QSpinBox>
#include <QWheelEvent>

namespace clumplab::gui {

template <class Base>
class WheelSafe : public Base {
 public:
  explicit WheelSafe(QWidget* parent = nullptr) : Base(parent) { this->setFocusPolicy(Qt::StrongFocus); }

 protected:
  void wheelEvent(QWheelEvent* event) override {
    if (this->hasFocus()) {
      Base::wheelEvent(event);
    } else {
      event->ignore();
    }
  }
};

using WheelSafeComboBox = WheelSafe<QComboBox>;
using WheelSafeSpinBox = WheelSafe<QSpinBox>;

}  // namespace clumplab::gui
