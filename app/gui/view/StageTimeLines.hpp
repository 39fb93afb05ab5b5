#pragma once
// The status overlay's lines on where a step's time goes: the total per step and each stage's share
// (the broad phase's two levels beside it), over the recent steps sim::RecentStageTimes averaged.
#include <QStringList>

#include "sim/RecentStageTimes.hpp"

namespace clumplab::gui {

// Empty when `times` covers no step.
QStringList stageTimeLines(const sim::StageTimes& times);

}  // namespace clumplab::gui
