#pragma once
// Every key and mouse gesture of the main window, in one list: the actions take their keys from
// here and the F1 help overlay prints it, so the two never disagree.
#include <QKeySequence>
#include <QList>
#include <QString>

namespace clumplab::gui {

struct ShortcutHelp {
  QString keys;
  QString action;
};

namespace keys {
inline const QKeySequence playPause{Qt::Key_Space};
inline const QKeySequence step{Qt::Key_Right};
inline const QKeySequence stepBack{Qt::SHIFT | Qt::Key_Left};
inline const QKeySequence recordTrajectory{Qt::CTRL | Qt::SHIFT | Qt::Key_R};
// Replay mode (the live keys above are off while a replay is shown).
inline const QKeySequence replayPrevious{Qt::Key_Left};
inline const QKeySequence replayFirst{Qt::Key_Home};
inline const QKeySequence replayLast{Qt::Key_End};
inline const QKeySequence leaveReplay{Qt::Key_Escape};
inline const QKeySequence reset{Qt::Key_Backspace};
inline const QKeySequence faster{Qt::Key_Plus};
inline const QKeySequence fasterAlt{Qt::Key_Equal};
inline const QKeySequence slower{Qt::Key_Minus};
inline const QKeySequence screenshot{Qt::CTRL | Qt::Key_P};
inline const QKeySequence record{Qt::CTRL | Qt::Key_R};
inline const QKeySequence help{Qt::Key_F1};
inline const QKeySequence reload{Qt::CTRL | Qt::Key_L};
inline const QKeySequence fitAll{Qt::Key_F};
inline const QKeySequence track{Qt::Key_T};
inline const QKeySequence lookAlongL{Qt::Key_L};
inline const QKeySequence spawn{Qt::Key_S};
inline const QKeySequence shoot{Qt::Key_G};
inline const QKeySequence deleteBody{Qt::Key_Delete};
inline const QKeySequence pebbles{Qt::Key_1};
inline const QKeySequence wireframe{Qt::Key_2};
inline const QKeySequence mesh{Qt::Key_3};
inline const QKeySequence stereo{Qt::Key_4};
inline const QKeySequence clumpWizard{Qt::CTRL | Qt::SHIFT | Qt::Key_N};
inline const QKeySequence dzhanibekov{Qt::CTRL | Qt::Key_D};
}  // namespace keys

inline QList<ShortcutHelp> shortcutHelp() {
  auto text = [](const QKeySequence& k) { return k.toString(QKeySequence::NativeText); };
  return {
      {text(keys::playPause), QStringLiteral("play / pause")},
      {text(keys::step), QStringLiteral("one step (pauses)")},
      {text(keys::stepBack), QStringLiteral("step back to an earlier state (paused; history)")},
      {text(keys::reset), QStringLiteral("reset to the loaded scene")},
      {QStringLiteral("+ / −"), QStringLiteral("faster / slower")},
      {text(keys::fitAll), QStringLiteral("fit everything in view")},
      {text(keys::track), QStringLiteral("track the selected body")},
      {text(keys::lookAlongL), QStringLiteral("look along the angular momentum L")},
      {text(keys::spawn), QStringLiteral("spawn the chosen template at the cursor")},
      {text(keys::shoot), QStringLiteral("shoot it from the camera towards the cursor")},
      {text(keys::deleteBody), QStringLiteral("delete the selected body")},
      {QStringLiteral("1 / 2 / 3"), QStringLiteral("pebbles / wireframe / source mesh")},
      {text(keys::stereo), QStringLiteral("anaglyph stereo (red/cyan glasses)")},
      {text(keys::screenshot), QStringLiteral("screenshot")},
      {text(keys::record), QStringLiteral("record a movie / stop recording (of the replay in replay)")},
      {text(keys::recordTrajectory), QStringLiteral("record a trajectory (.cltraj) / stop")},
      {QStringLiteral("← / →, Home / End"),
       QStringLiteral("replay: previous / next frame, first / last (Space plays, + / − speed)")},
      {text(keys::leaveReplay), QStringLiteral("replay: back to the live scene")},
      {text(keys::reload), QStringLiteral("reload the scene file")},
      {text(keys::clumpWizard), QStringLiteral("new clump from a mesh (the wizard)")},
      {text(keys::dzhanibekov), QStringLiteral("Dzhanibekov mode on the selected body")},
      {QStringLiteral("Ctrl+Z / Ctrl+Shift+Z"), QStringLiteral("undo / redo a parameter edit")},
      {QStringLiteral("left-drag"), QStringLiteral("orbit; on a body: pull it (moves it when paused)")},
      {QStringLiteral("right-drag, Shift+left-drag"), QStringLiteral("pan")},
      {QStringLiteral("wheel"), QStringLiteral("zoom")},
      {QStringLiteral("click"), QStringLiteral("select a body (inspector)")},
      {text(keys::help), QStringLiteral("this help")},
  };
}

}  // namespace clumplab::gui
