#pragma once
// The main window: the 3D view in the middle, Parameters / Inspector / Energy docks around it,
// menus and a toolbar. It owns the simulation thread (SimulationLoop), pulls each new frame at
// display rate and hands it to the widgets; every user action becomes a command to that thread.
// Its controllers hold the parts with a life of their own: SpawnController (bodies added and
// deleted by hand), RecordingController (movies, screenshots), LessonController, DocumentController
// (open, save, restore), SceneSwitches (PaLa's spheres and 2D / 3D) and the DivergenceBanner.
// MainWindow.cpp puts them together; WindowActions holds the actions, toolbar and menus;
// MainWindowDocument.cpp shows an opened scene and takes files dropped on the window.
#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <QUndoStack>
#include <memory>
#include <optional>

#include "core/model/WorldModel.hpp"
#include "gui/document/Autosave.hpp"
#include "gui/document/DocumentHost.hpp"
#include "gui/document/MotionChoice.hpp"
#include "gui/document/ScriptHost.hpp"
#include "gui/lessons/LessonHost.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/RecordingHost.hpp"
#include "gui/replay/ReplayHost.hpp"
#include "gui/spawn/SpawnHost.hpp"
#include "render/ViewOptions.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

class ClumpWizard;
class DivergenceBanner;
class MeshNoticeBar;
class StepAdviceBar;
class DzhanibekovDock;
class EnergyPlotDock;
class InletStatusLabel;
class InspectorDock;
class ParametersDock;
class LessonController;
class LessonDock;
class OrderAnalysisDialog;
class DocumentController;
class SceneSwitches;
class RecordingController;
class ReplayController;
class SpawnController;
class TrajectoryControls;
class WindowActions;
class TemplateLibraryDock;
class Viewport;

class MainWindow : public QMainWindow,
                   public virtual RecordingHost,
                   public LessonHost,
                   public ReplayHost,
                   public ScriptHost,
                   public DocumentHost,
                   public SpawnHost {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads a scene or mesh (a trajectory opens in replay mode); on error shows a dialog (unless `quiet`)
  // naming the file and keeps the current scene. Returns the error ("" on success).
  QString openDocument(const QString& path, bool quiet = false) override;
  // Starts the built-in default scene.
  void openDefaultScene();
  // At start without a file: the scene shown last time (File → Reopen the last scene at start, on by
  // default), else the default scene.
  void openStartScene();
  void setRunning(bool running) override;
  bool running() const override { return running_; }
  // One step, or back to an earlier state of the history; both pause.
  void singleStep();
  void stepBack();
  // Speed: a factor in [0.001, 1], or as fast as possible.
  void setSpeed(double speed, bool asFastAsPossible) override;
  double speed() const override { return speed_; }  // simulated seconds per wall second
  bool asFastAsPossible() const override { return asFast_; }
  // One run speed up (+1) or down (-1) in kRunSpeeds; above the fastest, as fast as possible.
  void changeSpeed(int direction);
  void applyParameters(const EditableModel& parameters);
  // Spawns the template chosen in the toolbar at the world point under `pixel` of the 3D view, or
  // shoots it from the camera towards that point at the chosen speed.
  void spawnAt(QPoint pixel, bool shoot);
  void deleteSelected();
  // Spawns a template (not necessarily one of the world's yet) at the world point under `pixel`
  // of the 3D view, lifted clear of the bodies there.
  void spawnTemplateAt(TemplatePtr clump, QPoint pixel);
  // The same for a template file of the library (what dropping it on the view does); false with a
  // message when the file cannot be read.
  bool spawnLibraryTemplate(const QString& path, QPoint pixel);
  // Adds bodies as one undoable edit named `what` (SpawnCommand): each dropped at its position, or
  // shot towards `aimedAt`; with `newTemplate`, every body is of it.
  void spawnUndoable(std::vector<BodyInit> bodies, TemplatePtr newTemplate, std::optional<Vec3> aimedAt,
                     const QString& what) override;
  // After a divergence: back to the last good state, half the time step, running (the banner's fix).
  void recoverWithHalfStep();
  // After a divergence: back to the last good state at the recommended step, running.
  void recoverWithSafeStep();
  // After a divergence that began right after an edit: back to the last good state with that edit
  // undone (the bodies spawned deleted, the parameters as before), running.
  void recoverByUndoingTheEdit();
  bool divergenceBannerShown() const;
  // Saves the live scene (atomic write); returns the error or "" (waits for the simulation thread).
  QString saveSceneTo(const QString& path);
  // Opens an orphaned autosave (Autosave.hpp) as an unsaved scene: Save asks where, offering `source`.
  QString openRestored(const QString& autosavePath, const QString& source);
  Autosave& autosave() override { return *autosave_; }
  // Shows the clump wizard (modeless; one at a time: an open one is raised).
  ClumpWizard* openClumpWizard() override;
  // Starts recording a movie (what the Record dialog asked for). When the format needs ffmpeg and
  // there is none, says so and offers a PNG sequence instead. False if nothing is recording.
  bool startRecording(RecordingPlan plan);
  bool recording() const;
  // Dzhanibekov mode: shows its panel on `body`, selects the body, and turns on the overlays it
  // needs (body axes, omega, L; the polhode is the panel's).
  void openDzhanibekovPanel(int body) override;
  DzhanibekovDock* dzhanibekovDock() const override { return dzhanibekovDock_; }

  // Read-only access for tests and scripted runs.
  sim::SimulationLoop& simulation() override { return *loop_; }
  Viewport* viewport() const override { return viewport_; }
  EnergyPlotDock* energyDock() const override { return energyDock_; }
  InspectorDock* inspectorDock() const override { return inspectorDock_; }
  TemplateLibraryDock* templateLibrary() const override { return templateLibrary_; }
  LessonDock* lessonDock() const override { return lessonDock_; }
  // Opens lesson `index` of the lesson panel: its scene, view, camera, speed and plot, and its text
  // beside the view. "" or the error (the running scene stays then).
  // `run`: the scene starts running (a scripted run starts it itself).
  QString openLesson(int index, bool run = true);
  // Back to the lesson list; the scene stays as it is, and what the lessons changed (run speed, view,
  // plot, panels) is as it was before the first of them opened.
  void closeLesson();
  // The lesson `which` names: its number in the list (1, 2, ...), its file name with or without the
  // number and ".json" ("dzhanibekov-wingnut"), or its title, ignoring case; -1 when none does.
  int findLesson(const QString& which) const;
  // Reopens the scene with every clump as its bounding or volume-equivalent sphere, or as built
  // (PaLa's switch, Mutze, Polyspherical grains, §1 (ii)); "" or the error (the scene stays then). Applies to
  // the files opened next too.
  QString setSphereMode(std::optional<SphereKind> spheres);
  std::optional<SphereKind> sphereMode() const;
  // Reopens the scene in 3D, in 2D in a coordinate plane through the middle of its bodies, or as
  // its file says (PaLa's 2D / 3D switch, Mutze, Polyspherical grains, §1 (i)); "" or the error (the scene
  // stays then). Explicit bodies move into the plane, generated ones are placed in it. Opening another file
  // returns to "as the scene file says".
  QString setMotion(MotionChoice choice);
  MotionChoice motion() const;
  // The integrator order analysis of the scene with the current parameters, in a new window.
  OrderAnalysisDialog* openOrderAnalysis();
  ParametersDock* parametersDock() const { return parametersDock_; }
  QUndoStack* undoStack() { return &undo_; }
  ReplayController* replay() const override { return replay_; }
  TrajectoryControls* trajectoryControls() const { return trajectory_; }
  // Off while a replay is shown: what would act on the live scene (run, step, edit, spawn).
  void setLiveControlsEnabled(bool on) override;
  const EditableModel& parameters() const { return parameters_; }
  // The scene opened (as loaded, before the parameters' edits); null before the first.
  std::shared_ptr<const Scene> scene() const override;
  RecordingController* recordingController() const override { return recording_; }
  DocumentController* document() const { return document_; }
  SpawnController* spawnController() const { return spawn_; }
  SceneSwitches* sceneSwitches() const { return switches_; }
  // The toolbar's view toggles and colouring follow the view's options (after they were set).
  void showViewOptions() override;
  // The newest frame the window has shown (null before the first).
  const sim::SimulationFrame* currentFrame() const override { return haveFrame_ ? &loop_->frame() : nullptr; }
  // The rest of what a movie recording asks of the window (RecordingHost).
  QImage energyPlotImage(QSize size) const override;
  QImage bodyOmegaPlotImage(QSize size) const override;
  QMetaObject::Connection connectFrameShown(QObject* receiver, std::function<void()> onFrame) override;
  // Pulls and shows the newest frame now (the timer does this at display rate).
  void tick() override;

 signals:
  void frameShown();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // The constructor's parts, in order: the bars over the 3D view and the view; the docks; the
  // controllers, the menus and the status bar; the signals between the panels and the view.
  void createCentralArea();
  void createDocks();
  void createDzhanibekovDock();
  void createControllers();
  void connectPanelsAndView();
  void restoreSettings();
  void saveSettings() const;
  // A document opened (DocumentController::opened): parameters, plots and the thread follow it.
  void showScene(std::shared_ptr<const Scene> scene, const QString& path);
  void lookAlongScenePlane(const Scene& scene);  // the 2D mode's view along the plane normal
  void showRunning(bool running);                // the play button and state, without telling the thread
  void onParametersEdited(const EditableModel& parameters, const QString& what);

  std::unique_ptr<sim::SimulationLoop> loop_;
  std::unique_ptr<Autosave> autosave_;
  Viewport* viewport_ = nullptr;
  ParametersDock* parametersDock_ = nullptr;
  InspectorDock* inspectorDock_ = nullptr;
  EnergyPlotDock* energyDock_ = nullptr;
  TemplateLibraryDock* templateLibrary_ = nullptr;
  DzhanibekovDock* dzhanibekovDock_ = nullptr;
  LessonDock* lessonDock_ = nullptr;
  DocumentController* document_ = nullptr;
  SceneSwitches* switches_ = nullptr;
  LessonController* lessons_ = nullptr;
  SpawnController* spawn_ = nullptr;
  RecordingController* recording_ = nullptr;
  DivergenceBanner* banner_ = nullptr;
  QTimer timer_;
  QUndoStack undo_;
  EditableModel parameters_;
  bool haveFrame_ = false;
  std::uint64_t shownGeneration_ = 0;       // of the energy samples shown
  std::uint64_t shownFrameGeneration_ = 0;  // of the frame shown
  std::uint64_t shownLayout_ = ~std::uint64_t{0};
  StepAdviceBar* stepAdvice_ = nullptr;  // the safe step offered after an edit that needs it
  MeshNoticeBar* meshNotice_ = nullptr;  // what a mesh's import did, and its repair
  std::uint64_t shownNotices_ = 0;
  std::uint64_t spawnSerials_ = 0;
  // Back to the last good state with `timeStep` [s], running; on the undo stack as `what`.
  void recoverWithStep(double timeStep,
                       const QString& what);  // SpawnCommand's serials, unique in the window's life  //
                                              // SimulationFrame::noticeCount of the last notice shown
  double speed_ = 1.0;
  bool asFast_ = false;
  bool running_ = true;
  std::uint64_t runTicket_ = 0;  // commands posted when the window last told the thread to run or stop
  std::vector<sim::EnergySample> samples_;

  ReplayController* replay_ = nullptr;
  TrajectoryControls* trajectory_ = nullptr;
  QPointer<ClumpWizard> clumpWizard_;
  InletStatusLabel* inletStatus_ = nullptr;  // the inlets' progress; "done" messages
  WindowActions* actions_ = nullptr;
};

}  // namespace clumplab::gui
