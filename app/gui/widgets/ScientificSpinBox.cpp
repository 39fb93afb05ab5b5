#include "gui/widgets/ScientificSpinBox.hpp"

#include <QLineEdit>
#include <QWheelEvent>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace clumplab::gui {

ScientificSpinBox::ScientificSpinBox(const QString& unit, double minimum, double maximum, bool logarithmic,
                                     QWidget* parent)
    : QDoubleSpinBox(parent), logarithmic_(logarithmic) {
  // QDoubleSpinBox rounds values to `decimals` places after the point: 323 keeps every double.
  setDecimals(323);
  setFocusPolicy(Qt::StrongFocus);
  setRange(minimum, maximum);
  if (!unit.isEmpty()) setSuffix(QStringLiteral(" ") + unit);
  setKeyboardTracking(false);  // apply when Enter is pressed or focus leaves, not at every key
  setAccelerated(true);
  setSingleStep(0.1);
}

QString ScientificSpinBox::textFromValue(double value) const {
  // Six significant digits at most, so that the field shows its value whole (0.2857142857142857 and
  // 0.00016177613 were cut off); the value itself keeps every digit (valueFromText).
  char text[32];
  const auto shortest = std::to_chars(text, text + sizeof text, value);
  QString exact = QString::fromLatin1(text, static_cast<qsizetype>(shortest.ptr - text));
  const QString rounded = QString::number(value, 'g', kShownDigits);
  return exact.size() <= rounded.size() ? exact : rounded;
}

QSize ScientificSpinBox::minimumSizeHint() const {
  // The text of the widest value shown and the unit, plus the frame and arrows QDoubleSpinBox adds
  // around its own estimate (the longer of its limits' texts, each cut at 18 characters: a limit of
  // 1.7976931348623157e+308 does not widen the field).
  QSize size = QDoubleSpinBox::minimumSizeHint();
  const auto limitWidth = [this](double limit) {
    QString text = textFromValue(limit);
    text.truncate(18);
    return fontMetrics().horizontalAdvance(text + suffix());
  };
  const int arrows = size.width() - std::max(limitWidth(minimum()), limitWidth(maximum()));
  const int widest = fontMetrics().horizontalAdvance(QStringLiteral("-8.88888e-888") + suffix());
  size.setWidth(std::max(120, widest + std::max(arrows, 28)));
  return size;
}

QSize ScientificSpinBox::sizeHint() const {
  return QDoubleSpinBox::sizeHint().expandedTo(minimumSizeHint());
}

void ScientificSpinBox::wheelEvent(QWheelEvent* event) {
  if (hasFocus()) {
    QDoubleSpinBox::wheelEvent(event);
  } else {
    event->ignore();  // scrolling the panel passes over the field
  }
}

double ScientificSpinBox::valueFromText(const QString& text) const {
  QString t = text;
  if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
  t = t.trimmed();
  // The field as shown (rounded to six digits) is the exact value: confirming it changes nothing.
  if (t == textFromValue(value())) return value();
  return t.toDouble();
}

QValidator::State ScientificSpinBox::validate(QString& text, int& /*pos*/) const {
  QString t = text;
  if (!suffix().isEmpty() && t.endsWith(suffix())) t.chop(suffix().size());
  t = t.trimmed();
  if (t.isEmpty() || t == QLatin1String("-") || t.endsWith(QLatin1Char('e')) ||
      t.endsWith(QLatin1String("e-")) || t.endsWith(QLatin1String("e+"))) {
    return QValidator::Intermediate;
  }
  bool ok = false;
  const double v = t.toDouble(&ok);
  if (!ok || !std::isfinite(v)) return QValidator::Invalid;
  return (v >= minimum() && v <= maximum()) ? QValidator::Acceptable : QValidator::Intermediate;
}

void ScientificSpinBox::stepBy(int steps) {
  const double v = value();
  if (logarithmic_ && v > 0.0) {
    setValue(v * std::pow(1.25, steps));
  } else {
    setValue(v + singleStep() * steps);
  }
  selectAll();
}

}  // namespace clumplab::gui
