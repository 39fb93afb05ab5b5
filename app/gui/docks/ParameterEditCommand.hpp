#pragma once
// One undoable parameter edit. Consecutive edits of the same parameter merge into one entry, so
// spinning a box through twenty values is undone in one step.
#include <QUndoCommand>
#include <functional>

#include "core/model/WorldModel.hpp"

namespace clumplab::gui {

class ParameterEditCommand : public QUndoCommand {
 public:
  using Apply = std::function<void(const EditableModel&)>;
  ParameterEditCommand(const EditableModel& before, const EditableModel& after, const QString& what,
                       Apply apply)
      : QUndoCommand(QObject::tr("change %1").arg(what)),
        before_(before),
        after_(after),
        what_(what),
        apply_(std::move(apply)) {}

  void undo() override { apply_(before_); }
  void redo() override { apply_(after_); }
  int id() const override { return 1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* edit = static_cast<const ParameterEditCommand*>(other);
    if (edit->what_ != what_) return false;
    after_ = edit->after_;
    if (after_ == before_) setObsolete(true);  // edited back: nothing left to undo
    return true;
  }

 private:
  EditableModel before_;
  EditableModel after_;
  QString what_;
  Apply apply_;
};

}  // namespace clumplab::gui
