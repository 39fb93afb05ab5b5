#include "gui/wizard/WizardText.hpp"

#include <QLabel>
#include <QLocale>
#include <QStringList>
#include <cmath>

namespace clumplab::gui::wizard {

namespace {
struct Unit {
  double factor;  // metres per unit
  const char* name;
};
Unit unitFor(double meters) {
  const double a = std::abs(meters);
  if (a >= 0.5) return {1.0, "m"};
  if (a >= 0.05) return {0.01, "cm"};
  if (a >= 5e-5 || a == 0.0) return {0.001, "mm"};
  return {1e-6, "µm"};
}
QString number(double value) {
  return QLocale().toString(value, 'g', 4);
}
}  // namespace

QString lengthText(double meters) {
  const Unit u = unitFor(meters);
  return number(meters / u.factor) + QStringLiteral(" ") + QString::fromUtf8(u.name);
}

QString lengthText(double meters, double reference) {
  const Unit u = unitFor(reference);
  const double size = std::abs(reference) / u.factor;
  const int decimals = size > 0.0 ? std::max(0, 3 - static_cast<int>(std::floor(std::log10(size)))) : 3;
  return QLocale().toString(meters / u.factor, 'f', decimals) + QStringLiteral(" ") +
         QString::fromUtf8(u.name);
}

QString volumeText(double cubicMeters) {
  return volumeText(cubicMeters, cubicMeters);
}

QString volumeText(double cubicMeters, double reference) {
  const Unit u = unitFor(std::cbrt(reference));
  return number(cubicMeters / (u.factor * u.factor * u.factor)) + QStringLiteral(" ") +
         QString::fromUtf8(u.name) + QStringLiteral("³");
}

namespace {
QString boxText(const shapes::MeshReport& r) {
  const Vec3 size = r.upper - r.lower;
  const Unit u = unitFor(size.maxCoeff());
  return QStringLiteral("%1 × %2 × %3 %4")
      .arg(number(size.x() / u.factor), number(size.y() / u.factor), number(size.z() / u.factor),
           QString::fromUtf8(u.name));
}
}  // namespace

QString repairToolTip() {
  return QObject::tr(
      "Closes holes whose perimeter is at most the bounding-box diagonal, so that the mesh is a closed "
      "surface with exact mass properties. Without it, an open mesh is still a solid: where its "
      "generalized winding number is at least ½, with mass properties sampled on a grid (their error "
      "is shown). Seams (copies of a vertex that differ by round-off) are welded on every import.");
}

void styleAsError(QLabel* label) {
  label->setStyleSheet(QStringLiteral("color: #c62828;"));
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

QString closureText(const shapes::MeshReport& r) {
  const bool repaired = !r.holesClosed.empty() || r.verticesMergedNearby > 0;
  if (r.closed) return repaired ? QObject::tr("closed after repair") : QObject::tr("closed");
  QStringList why;
  if (r.boundaryEdges > 0) {
    why << (r.boundaryEdges == 1 ? QObject::tr("open: 1 boundary edge")
                                 : QObject::tr("open: %1 boundary edges").arg(r.boundaryEdges));
  }
  if (r.nonManifoldEdges > 0) {
    why << (r.nonManifoldEdges == 1 ? QObject::tr("1 non-manifold edge")
                                    : QObject::tr("%1 non-manifold edges").arg(r.nonManifoldEdges));
  }
  if (r.overlappingShells) why << QObject::tr("overlapping shells");
  if (why.isEmpty()) why << QObject::tr("not closed");
  return why.join(QStringLiteral(", ")) +
         QObject::tr(" (the solid is where its winding number is at least ½)");
}

QString meshSummary(const ImportedMesh& mesh) {
  const shapes::MeshReport& r = mesh.prepared.report;
  const QString shells = r.shells == 1 ? QObject::tr("1 shell") : QObject::tr("%1 shells").arg(r.shells);
  return QObject::tr("%1: %2 triangles, %3, %4, %5, volume %6")
      .arg(QString::fromStdString(mesh.choice.displayName()),
           QLocale().toString(static_cast<qulonglong>(r.triangles)), closureText(r), shells, boxText(r),
           volumeText(r.volume));
}

QString meshReportHtml(const ImportedMesh& mesh) {
  const shapes::MeshReport& r = mesh.prepared.report;
  QStringList rows;
  const auto row = [&](const QString& key, const QString& value) {
    rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, value.toHtmlEscaped());
  };
  row(QObject::tr("File"), QString::fromStdString(r.file) + QStringLiteral(" (") +
                               QString::fromStdString(r.format) + QStringLiteral(")"));
  row(QObject::tr("Triangles"),
      QObject::tr("%1 read, %2 kept; %3 vertices").arg(r.trianglesRead).arg(r.triangles).arg(r.vertices));
  row(QObject::tr("Surface"), closureText(r));
  row(QObject::tr("Shells"),
      QString::number(r.shells) +
          (r.shellsInverted > 0 ? QObject::tr(" (%1 turned inside out)").arg(r.shellsInverted) : QString()));
  row(QObject::tr("Bounding box"), boxText(r));
  row(QObject::tr("Volume"), volumeText(r.volume));
  const Unit a = unitFor(std::sqrt(r.area));
  row(QObject::tr("Surface area"), number(r.area / (a.factor * a.factor)) + QStringLiteral(" ") +
                                       QString::fromUtf8(a.name) + QStringLiteral("²"));
  QStringList fixes;
  if (r.degenerateDropped > 0)
    fixes << QObject::tr("%1 degenerate triangles dropped").arg(r.degenerateDropped);
  if (r.duplicatesDropped > 0)
    fixes << QObject::tr("%1 duplicate triangles dropped").arg(r.duplicatesDropped);
  if (r.trianglesReoriented > 0) fixes << QObject::tr("%1 triangles turned").arg(r.trianglesReoriented);
  if (r.verticesMergedNearby > 0) fixes << QObject::tr("%1 vertices welded").arg(r.verticesMergedNearby);
  for (const shapes::MeshHole& h : r.holesClosed)
    fixes
        << QObject::tr("a hole of %1 edges (perimeter %2) closed").arg(h.edges).arg(lengthText(h.perimeter));
  row(QObject::tr("Repairs"),
      fixes.isEmpty() ? QObject::tr("none needed") : fixes.join(QStringLiteral("; ")));
  for (const std::string& w : r.warnings) row(QObject::tr("Warning"), QString::fromStdString(w));
  return QStringLiteral("<table cellspacing=\"3\">") + rows.join(QString()) + QStringLiteral("</table>");
}

}  // namespace clumplab::gui::wizard
