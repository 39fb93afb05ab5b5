#include "gui/view/GlFormat.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QThread>
#include <algorithm>

namespace clumplab::gui {

namespace {
// True when the default OpenGL implementation rasterises on the CPU.
bool softwareRenderer(const QSurfaceFormat& format) {
  QOffscreenSurface surface;
  surface.setFormat(format);
  surface.create();
  QOpenGLContext context;
  context.setFormat(format);
  if (!context.create() || !context.makeCurrent(&surface)) return false;
  const auto* text = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
  const QByteArray renderer = text ? QByteArray(text).toLower() : QByteArray();
  context.doneCurrent();
  return renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("swrast");
}
}  // namespace

QSurfaceFormat viewportSurfaceFormat() {
  // Mesa's llvmpipe rasterises with one thread per core by default; beside the simulation thread
  // that oversubscribes the machine (on 2 cores the simulation ran at 40% of its headless speed
  // and the view at 10 fps; with one rasteriser thread, 100% and 13 fps). Half the cores go to
  // drawing unless the user says otherwise. Hardware drivers ignore the variable.
  if (!qEnvironmentVariableIsSet("LP_NUM_THREADS")) {
    qputenv("LP_NUM_THREADS", QByteArray::number(std::max(1, QThread::idealThreadCount() / 2)));
  }
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  if (qEnvironmentVariableIsSet("CLUMPLAB_SAMPLES")) {
    format.setSamples(qEnvironmentVariableIntValue("CLUMPLAB_SAMPLES"));
  } else {
    format.setSamples(softwareRenderer(format) ? 0 : 4);
  }
  return format;
}

}  // namespace clumplab::gui
