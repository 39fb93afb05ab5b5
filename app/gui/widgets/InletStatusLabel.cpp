#include "gui/widgets/InletStatusLabel.hpp"

#include <QStatusBar>
#include <QStringList>

namespace clumplab::gui {

InletStatusLabel::InletStatusLabel(QStatusBar* bar) : bar_(bar) {
  setToolTip(tr("Inlets: mass and bodies inserted so far"));
  hide();
}

void InletStatusLabel::showInlets(const Snapshot& snapshot, std::uint64_t sceneGeneration) {
  const std::vector<Inlet>& inlets = snapshot.inlets;
  if (sceneGeneration != generation_ || states_.size() != inlets.size()) {
    // A new scene: what is already done was done before it was shown.
    generation_ = sceneGeneration;
    states_.clear();
    for (const Inlet& inlet : inlets) states_.push_back(inlet.progress().state);
  }
  QStringList parts;
  for (std::size_t i = 0; i < inlets.size(); ++i) {
    const InletProgress& p = inlets[i].progress();
    const QString name = inlets.size() == 1 ? tr("Inlet") : tr("Inlet %1").arg(i + 1);
    const QString amount =
        tr("%1 kg, %n bodies", nullptr, static_cast<int>(p.insertedCount)).arg(p.insertedMass, 0, 'g', 4);
    if (p.state == InletState::Done) {
      parts << tr("%1 done at %2 s (%3)").arg(name).arg(p.finishedAt, 0, 'g', 4).arg(amount);
      if (states_[i] != InletState::Done) {
        lastDone_ = tr("%1 done at t = %2 s: %3").arg(name).arg(p.finishedAt, 0, 'g', 6).arg(amount);
        bar_->showMessage(lastDone_, 8000);
      }
    } else if (p.state == InletState::Full) {
      parts << tr("%1 full since %2 s, %3 kg owed (%4)")
                   .arg(name)
                   .arg(p.fullSince, 0, 'g', 4)
                   .arg(inlets[i].owedMass(snapshot.time), 0, 'g', 3)
                   .arg(amount);
    } else if (p.state == InletState::Waiting) {
      parts << tr("%1 starts at %2 s").arg(name).arg(inlets[i].settings().start, 0, 'g', 4);
    } else {
      parts << tr("%1: %2").arg(name, amount);
    }
    states_[i] = p.state;
  }
  setVisible(!parts.isEmpty());
  setText(parts.join(QStringLiteral("  ·  ")));
}

}  // namespace clumplab::gui
