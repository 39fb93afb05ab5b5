#version 330 core
// Lit triangles given in world space (arrow heads, wall patches, markers), built on the CPU.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 aColor;  // sRGB, alpha

uniform mat4 uView;
uniform mat4 uProjection;

out vec3 vViewPos;
out vec3 vNormal;
out vec4 vColor;

void main() {
  vViewPos = (uView * vec4(aPosition, 1.0)).xyz;
  vNormal = mat3(uView) * aNormal;
  vColor = aColor;
  gl_Position = uProjection * vec4(vViewPos, 1.0);
}
