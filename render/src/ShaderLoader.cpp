#include "ShaderLoader.hpp"

#include <QFile>
#include <QRegularExpression>
#include <stdexcept>

#include "resources/Resources.hpp"

namespace clumplab::render {

namespace {

QString readResource(const QString& name) {
  initResources();
  QFile file(QStringLiteral(":/shaders/") + name);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    throw std::runtime_error("shader :/shaders/" + name.toStdString() +
                             " not found (is the resources library linked?)");
  return QString::fromUtf8(file.readAll());
}

}  // namespace

QString shaderSource(const QString& name) {
  static const QRegularExpression include(QStringLiteral("^\\s*#include\\s+\"([^\"]+)\"\\s*$"),
                                          QRegularExpression::MultilineOption);
  QString source = readResource(name);
  for (;;) {
    const QRegularExpressionMatch m = include.match(source);
    if (!m.hasMatch()) break;
    source.replace(m.capturedStart(), m.capturedLength(), readResource(m.captured(1)));
  }
  return source;
}

std::unique_ptr<QOpenGLShaderProgram> loadProgram(const QString& vertexName, const QString& fragmentName) {
  auto program = std::make_unique<QOpenGLShaderProgram>();
  const auto fail = [&](const QString& what) {
    throw std::runtime_error(QStringLiteral("shader program %1 + %2: %3 failed:\n%4")
                                 .arg(vertexName, fragmentName, what, program->log())
                                 .toStdString());
  };
  if (!program->addShaderFromSourceCode(QOpenGLShader::Vertex, shaderSource(vertexName)))
    fail(QStringLiteral("compiling ") + vertexName);
  if (!program->addShaderFromSourceCode(QOpenGLShader::Fragment, shaderSource(fragmentName)))
    fail(QStringLiteral("compiling ") + fragmentName);
  if (!program->link()) fail(QStringLiteral("linking"));
  return program;
}

void ProceduralProgram::initialize(Gl& gl, const QString& vertexName, const QString& fragmentName) {
  program = loadProgram(vertexName, fragmentName);
  gl.glGenVertexArrays(1, &vao);
}

void ProceduralProgram::release(Gl& gl) {
  program.reset();
  gl.glDeleteVertexArrays(1, &vao);
  vao = 0;
}

}  // namespace clumplab::render
