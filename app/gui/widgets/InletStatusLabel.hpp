#pragma once
// The inlets' status in the status bar (core/world/Inlet.hpp): a permanent label with what each inlet has
// inserted (or that it finds no room), and a message when one is done.
#include <QLabel>
#include <cstdint>
#include <vector>

#include "core/world/Snapshot.hpp"

class QStatusBar;

namespace clumplab::gui {

class InletStatusLabel : public QLabel {
  Q_OBJECT
 public:
  explicit InletStatusLabel(QStatusBar* bar);
  // The frame on screen: its inlets' summary, and "Inlet k done ..." in the status bar for an inlet
  // that finished since the last frame of the same scene (`sceneGeneration`: a load or reset).
  void showInlets(const Snapshot& snapshot, std::uint64_t sceneGeneration);
  // The last "done" message shown ("" if none), for tests.
  const QString& lastDoneMessage() const { return lastDone_; }

 private:
  QStatusBar* bar_;
  std::uint64_t generation_ = ~std::uint64_t{0};
  std::vector<InletState> states_;
  QString lastDone_;
};

}  // namespace clumplab::gui
