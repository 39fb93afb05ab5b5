#pragma once
// One undoable spawn: bodies added by hand (S, G, a template dropped from the library, the clump
// wizard's copies). Redo adds them (again, where there is room then); undo deletes the ones still
// there (SimulationLoop::removeSpawn), each time under a new serial.
#include <QUndoCommand>
#include <functional>
#include <optional>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

class SpawnCommand : public QUndoCommand {
 public:
  // `nextSerial` hands out serials unique in the window's life.
  SpawnCommand(sim::SimulationLoop& loop, std::vector<BodyInit> bodies, TemplatePtr newTemplate,
               std::optional<Vec3> aimedAt, const QString& text, std::function<std::uint64_t()> nextSerial)
      : QUndoCommand(text),
        loop_(loop),
        bodies_(std::move(bodies)),
        newTemplate_(std::move(newTemplate)),
        aimedAt_(aimedAt),
        nextSerial_(std::move(nextSerial)) {}

  void redo() override {
    serial_ = nextSerial_();
    loop_.spawn(bodies_, newTemplate_, aimedAt_, serial_);  // a template the world has is not added twice
  }
  void undo() override { loop_.removeSpawn(serial_); }
  std::uint64_t serial() const { return serial_; }

 private:
  sim::SimulationLoop& loop_;
  std::vector<BodyInit> bodies_;
  TemplatePtr newTemplate_;
  std::optional<Vec3> aimedAt_;
  std::function<std::uint64_t()> nextSerial_;
  std::uint64_t serial_ = 0;
};

}  // namespace clumplab::gui
