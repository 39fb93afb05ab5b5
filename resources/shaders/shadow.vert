#version 330 core
// Soft contact shadows: a disc on the floor under each pebble, wider and fainter the higher the
// pebble is above the floor.
layout(location = 0) in vec4 aPebble;
layout(location = 1) in uint aBody;

#include "pose.glsl"

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uHeight;  // floor z [m]

out vec2 vLocal;  // position in the disc, unit radius
flat out float vStrength;

void main() {
  Pose pose = fetchPose(aBody);
  vec3 w = pose.position + rotate(pose.rotation, aPebble.xyz);
  float r = aPebble.w;
  float gap = max(w.z - r - uHeight, 0.0);
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  vLocal = corner;
  // Pebbles more than a few radii up cast nothing worth the fill.
  if (gap > 2.5 * r || w.z < uHeight) {
    vStrength = 0.0;
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  float size = 1.1 * r + 0.9 * gap;
  vStrength = 0.55 * exp(-1.2 * gap / r) * (1.0 - gap / (2.5 * r));
  vec3 p = vec3(w.xy + size * corner, uHeight);
  gl_Position = uProjection * uView * vec4(p, 1.0);
}
