#pragma once
// What the desktop app does with its command line (StartOptions.hpp) once its window exists.
#include "gui/startup/StartOptions.hpp"

namespace clumplab::gui {

class MainWindow;

// Before the window shows: what the view draws and how it colours, the run speed, whether the
// simulation runs, the memory for stepping back. Throws StartError for an unknown view item or colouring.
void prepareWindow(MainWindow& window, const StartOptions& options);

// After it shows: a scene autosaved before a crash offered back (asked, or as --restore-autosave
// says), then the file or the start scene, PaLa's switches, the lesson and the replay. Throws
// StartError where a scripted run (--quit) cannot go on, or for an unknown lesson.
void openStartDocuments(MainWindow& window, const StartOptions& options);

}  // namespace clumplab::gui
