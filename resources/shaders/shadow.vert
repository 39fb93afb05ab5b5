#version 330 core
// Soft contact shadows: a disc on the floor under each pebble, wider and fainter the higher the
// pebble is above the floor; under a spherocylinder, the disc drawn out along its shaft's shadow.
layout(location = 0) in vec4 aPebble;
layout(location = 1) in uint aBody;
layout(location = 2) in vec3 aShaft;  // body-frame half shaft [m]

#include "pose.glsl"

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uHeight;  // floor z [m]

out vec2 vLocal;  // position in the disc, unit radius (x along the shaft's shadow)
flat out float vStretch;  // half the shaft's shadow over the disc radius
flat out float vStrength;

void main() {
  Pose pose = fetchPose(aBody);
  vec3 w = pose.position + rotate(pose.rotation, aPebble.xyz);
  vec3 shaft = rotate(pose.rotation, aShaft);
  float r = aPebble.w;
  float gap = max(w.z - abs(shaft.z) - r - uHeight, 0.0);  // from the lowest point
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  // Pebbles more than a few radii up cast nothing worth the fill.
  if (gap > 2.5 * r || w.z < uHeight) {
    vStrength = 0.0;
    vStretch = 0.0;
    vLocal = corner;
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  float size = 1.1 * r + 0.9 * gap;
  vStrength = 0.55 * exp(-1.2 * gap / r) * (1.0 - gap / (2.5 * r));
  float along = length(shaft.xy);
  vec2 e1 = along > 1e-9 * r ? shaft.xy / along : vec2(1.0, 0.0);
  vec2 e2 = vec2(-e1.y, e1.x);
  vStretch = along / size;
  vLocal = vec2(corner.x * (1.0 + vStretch), corner.y);
  vec2 p = w.xy + size * (vLocal.x * e1 + vLocal.y * e2);
  gl_Position = uProjection * uView * vec4(p, uHeight, 1.0);
}
