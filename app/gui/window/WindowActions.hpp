#pragma once
// The window's actions, toolbar and menus: run, step, step back, reset, record, the view toggles,
// the run speed and colouring boxes, and every menu (each key from Shortcuts.hpp). Each action
// calls the window or one of its controllers; the window keeps the checks in step with what runs
// (showRunning, showViewOptions).
#include <QList>
#include <QObject>

#include "render/ViewOptions.hpp"

class QAction;
class QComboBox;
class QDoubleSpinBox;

namespace clumplab::gui {

class MainWindow;

class WindowActions : public QObject {
  Q_OBJECT
 public:
  // Creates the actions (owned by the window); the toolbar and menus follow with createToolBar()
  // and createMenus(), once the window's docks and controllers exist.
  explicit WindowActions(MainWindow& window);
  void createToolBar();
  void createMenus();

  QAction* record() const { return recordAction_; }
  QAction* pebbles() const { return pebblesAction_; }
  QAction* wireframe() const { return wireframeAction_; }
  QAction* mesh() const { return meshAction_; }
  QComboBox* speedBox() const { return speedBox_; }
  QComboBox* coloringBox() const { return coloringBox_; }

  // The play button as running or paused (without telling the thread).
  void showRunning(bool running);
  // The view toggles and the colouring box as `options` say (without applying them again).
  void showViewOptions(const render::ViewOptions& options);
  // What acts on the live scene (run, step, edit, spawn, the speed box): off while a replay is shown.
  void setLiveEnabled(bool on);

 private:
  void createActions();
  // createMenus()'s parts, menu by menu; each adds its actions that act on the live scene to
  // liveActions_.
  void addFileMenu();
  void addEditMenu();
  void addSimulationMenu();
  void addViewMenu();
  void addLessonsMenu();
  void addHelpMenu();

  MainWindow& w_;
  QAction* playAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* stepBackAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QAction* pebblesAction_ = nullptr;
  QAction* wireframeAction_ = nullptr;
  QAction* meshAction_ = nullptr;
  QAction* trackAction_ = nullptr;
  QAction* helpAction_ = nullptr;
  QAction* recordAction_ = nullptr;
  QAction* stereoAction_ = nullptr;
  QAction* clumpWizardAction_ = nullptr;
  QDoubleSpinBox* eyeSeparation_ = nullptr;
  QComboBox* speedBox_ = nullptr;
  QComboBox* coloringBox_ = nullptr;
  QList<QAction*> liveActions_;  // act on the live scene (off in replay mode)
};

}  // namespace clumplab::gui
