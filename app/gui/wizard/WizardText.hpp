#pragma once
// How the wizard writes quantities: lengths in the unit that suits their size, with the unit.
#include <QString>

class QLabel;

#include "gui/wizard/WizardWork.hpp"

namespace clumplab::gui::wizard {

// A length [m] as "0.52 mm", "3.1 cm" or "1.25 m" (4 significant digits).
QString lengthText(double meters);
// A length [m] in the unit that suits `reference` [m], to a thousandth of it ("0.012 mm" for a 7 mm
// body), so that a column of lengths of one body reads alike.
QString lengthText(double meters, double reference);
// A volume [m^3] as "123 mm³", "4.5 cm³" or "0.2 m³".
QString volumeText(double cubicMeters);
// In the unit `reference` [m³] takes: a table's row keeps one unit.
QString volumeText(double cubicMeters, double reference);
// Whether the surface is closed ("closed", "closed after repair") or why not ("open: 9 boundary
// edges, 2 non-manifold edges (the solid is where its winding number is at least ½)").
QString closureText(const shapes::MeshReport& report);
// One line: "t-handle.stl: 1,204 triangles, closed, 1 shell, 7.00 × 5.00 × 1.50 mm, 21.3 mm³".
QString meshSummary(const ImportedMesh& mesh);
// The repair option's tooltip (the wizard's first and second pages).
QString repairToolTip();
// A label for problems: red, word-wrapped, selectable (to copy a file name or a message).
void styleAsError(QLabel* label);

// The mesh report as rich text: counts, closure, shells, bounding box, volume, area, repairs and
// warnings.
QString meshReportHtml(const ImportedMesh& mesh);

}  // namespace clumplab::gui::wizard
