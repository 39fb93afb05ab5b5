#version 330 core
// Overlay segments given in world space, one instance each (axes, arrows' shafts, trails, box
// edges, the drag line; a segment of length zero is a round dot).
layout(location = 0) in vec3 aP0;
layout(location = 1) in vec3 aP1;
layout(location = 2) in vec4 aColor;  // sRGB, alpha
layout(location = 3) in float aWidth; // logical pixels

uniform mat4 uView;
uniform float uPixelRatio;

#include "lines.glsl"

out vec4 vColor;

void main() {
  vColor = aColor;
  emitSegment((uView * vec4(aP0, 1.0)).xyz, (uView * vec4(aP1, 1.0)).xyz, aWidth * uPixelRatio, gl_VertexID);
}
