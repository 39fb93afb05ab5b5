#pragma once
// The OpenGL entry points render/ uses: desktop 3.3 core.
#include <QOpenGLFunctions_3_3_Core>

namespace clumplab::render {

using Gl = QOpenGLFunctions_3_3_Core;

// Byte offset into a bound buffer, as glVertexAttribPointer takes it.
inline const void* bufferOffset(std::size_t bytes) {
  return reinterpret_cast<const void*>(bytes);
}

}  // namespace clumplab::render
