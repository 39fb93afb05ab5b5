#pragma once
// A spin box for physical quantities spanning decades (1e-6 s, 2e4 N/m): shows and accepts
// scientific notation, shows six significant digits at most but keeps full precision (confirming the
// field as shown changes nothing), and steps multiplicatively (or additively near 0).
#include <QDoubleSpinBox>

namespace clumplab::gui {

class ScientificSpinBox : public QDoubleSpinBox {
  Q_OBJECT
 public:
  // `unit` is shown as a suffix ("s", "N/m"); `logarithmic` steps by x1.25 instead of by a fixed step.
  ScientificSpinBox(const QString& unit, double minimum, double maximum, bool logarithmic,
                    QWidget* parent = nullptr);

  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;
  void stepBy(int steps) override;
  // Wide enough for the longest value it shows (six digits and an exponent) and its unit, whole.
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void wheelEvent(QWheelEvent* event) override;

 private:
  static constexpr int kShownDigits = 6;
  bool logarithmic_;
};

}  // namespace clumplab::gui
