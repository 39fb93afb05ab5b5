#include "gui/view/StageTimeLines.hpp"

#include <QCoreApplication>
#include <QString>

namespace clumplab::gui {

namespace {
QString trStageTimes(const char* text) {
  return QCoreApplication::translate("StageTimeLines", text);
}

QString microseconds(double seconds) {
  return QString::number(seconds * 1e6, 'g', 4) + QStringLiteral(" µs");
}
}  // namespace

QStringList stageTimeLines(const sim::StageTimes& times) {
  if (times.steps == 0) return {};
  static const char* names[] = {"pebbles", "broad", "contacts", "reduce", "integrate"};
  QStringList stages;
  for (std::size_t k = 0; k < times.stageSeconds.size(); ++k) {
    QString stage =
        QStringLiteral("%1 %2").arg(QString::fromLatin1(names[k]), microseconds(times.stageSeconds[k]));
    // The broad phase's two levels: pairs of bodies, then pebble pairs of those bodies.
    if (k == 1 && times.broadPhaseBodySeconds + times.broadPhasePebbleSeconds > 0.0) {
      stage +=
          trStageTimes(" (body pairs %1, pebble pairs %2)")
              .arg(microseconds(times.broadPhaseBodySeconds), microseconds(times.broadPhasePebbleSeconds));
    }
    stages << stage;
  }
  const QString span =
      times.steps == 1 ? trStageTimes("the last step") : trStageTimes("the last %1 steps").arg(times.steps);
  return {trStageTimes("per step: %1 (%2, %3 s)")
              .arg(microseconds(times.total()), span, QString::number(times.windowSeconds, 'f', 1)),
          stages.mid(0, 3).join(QStringLiteral(" · ")), stages.mid(3).join(QStringLiteral(" · "))};
}

}  // namespace clumplab::gui
