#version 330 core
// A square patch of the floor plane (z = uHeight), from its centre and half size; no vertex data.
uniform mat4 uView;
uniform mat4 uProjection;
uniform vec2 uCenter;   // [m]
uniform float uHalfSize;
uniform float uHeight;

out vec3 vWorld;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  vWorld = vec3(uCenter + uHalfSize * corner, uHeight);
  gl_Position = uProjection * uView * vec4(vWorld, 1.0);
}
