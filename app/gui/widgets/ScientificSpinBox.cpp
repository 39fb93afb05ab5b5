#include "gui/widgets/ScientificSpinBox.hpp"

#include <QLineEdit>
#include <QWheelEvent>
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
  setMinimumWidth(120);
}

QString ScientificSpinBox::textFromValue(double value) const {
  // The shortest text that reads back to the same double, so confirming a field changes nothing.
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return QString::fromLatin1(text, static_cast<qsizetype>(result.ptr - text));
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
  return t.trimmed().toDouble();
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
