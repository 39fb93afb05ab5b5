#pragma once
// Builds shader programs from the GLSL files embedded at :/shaders/. A line `#include "file.glsl"`
// is replaced by that file (one level), so the passes share lighting and line code.
#include <QOpenGLShaderProgram>
#include <QString>
#include <memory>

#include "Gl.hpp"

namespace clumplab::render {

// The source of :/shaders/<name> with its includes expanded; throws std::runtime_error if missing.
QString shaderSource(const QString& name);

// Compiles and links; throws std::runtime_error naming the files, with the GLSL compiler's log.
std::unique_ptr<QOpenGLShaderProgram> loadProgram(const QString& vertexName, const QString& fragmentName);

// A program whose vertex shader makes its own geometry from gl_VertexID (background, floor, glass):
// no buffers, only the empty vertex array object core profile requires.
struct ProceduralProgram {
  std::unique_ptr<QOpenGLShaderProgram> program;
  unsigned vao = 0;

  void initialize(Gl& gl, const QString& vertexName, const QString& fragmentName);
  void release(Gl& gl);
};

}  // namespace clumplab::render
