#pragma once
// The OpenGL surface format of the 3D view: 3.3 core with depth, and 4x multisampling on a GPU.
// A software rasteriser (Mesa's llvmpipe) pays 4x the fragment work for multisampling and halves
// the frame rate, so it gets none unless CLUMPLAB_SAMPLES asks for it.
#include <QSurfaceFormat>

namespace clumplab::gui {

// Also gives Mesa's software rasteriser half the cores (LP_NUM_THREADS, unless set), leaving the
// rest to the simulation. Needs a QGuiApplication; call before the first OpenGL context exists.
QSurfaceFormat viewportSurfaceFormat();

}  // namespace clumplab::gui
