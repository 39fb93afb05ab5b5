#pragma once
// How much two solids share: their volumes and that of their intersection, for the Dice coefficient
// 2 |A ∩ B| / (|A| + |B|) of a clump against its mesh (Dice, "Measures of the amount of ecologic
// association between species", Ecology 1945). Exact along x (the solids' spans), sampled in y and z.
#include "core/base/WorkProgress.hpp"
#include "core/clump/Solid.hpp"

namespace clumplab {

struct SolidOverlap {
  double volumeA = 0.0;     // [m^3]
  double volumeB = 0.0;     // [m^3]
  double volumeBoth = 0.0;  // |A ∩ B| [m^3]
  int rowsPerSide = 0;      // lines along x across y, and across z
  // |Dice - Dice at half the rows|, and when that is within the budget and more rows are allowed,
  // the larger of it and |Dice - Dice on a shifted grid| (solidOverlapWithinBudget)
  double diceErrorEstimate = 0.0;

  double dice() const {
    const double sum = volumeA + volumeB;
    return sum > 0.0 ? 2.0 * volumeBoth / sum : 1.0;
  }
  // |B \ A| [m^3]: what B has outside A.
  double onlyB() const { return volumeB - volumeBoth; }
};

// Over the (y, z) box holding both, `rowsPerSide` lines along x across each of y and z, each at its
// cell's centre shifted by `shift` cells; every line's spans of A, of B and of
// their intersection measured exactly. The threads of the machine share the rows; the result does
// not depend on their number. A set cancel flag of `progress` stops it (OperationCancelled).
SolidOverlap solidOverlap(const Solid& a, const Solid& b, int rowsPerSide, double shift = 0.5,
                          const WorkProgress& progress = {});

// Rows doubled from 64 until the Dice coefficient moves by less than `diceBudget` (against half the
// rows and against the same rows on a grid shifted by 0.382 cells), or rows reach `maxRowsPerSide`
// (where the shifted grid is not drawn: it could not change the result).
SolidOverlap solidOverlapWithinBudget(const Solid& a, const Solid& b, double diceBudget,
                                      int maxRowsPerSide = 2048, const WorkProgress& progress = {});

}  // namespace clumplab
