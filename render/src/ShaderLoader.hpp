#pragma once
// Builds shader programs from the GLSL files embedded at :/shaders/. A line `#include "file.glsl"`
// is replaced by that file (one level), so the passes share lighting and line code.
#include <QOpenGLShaderProgram>
#include <QString>
#include <memory>

namespace clumplab::render {

// The source of :/shaders/<name> with its includes expanded; throws std::runtime_error if missing.
QString shaderSource(const QString& name);

// Compiles and links; throws std::runtime_error naming the files, with the GLSL compiler's log.
std::unique_ptr<QOpenGLShaderProgram> loadProgram(const QString& vertexName, const QString& fragmentName);

}  // namespace clumplab::render
