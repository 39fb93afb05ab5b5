#version 330 core
// Translucent source mesh: a pale tint of the body colour, more opaque at grazing angles.
in vec3 vViewPos;
in vec3 vNormal;
flat in vec4 vColor;

#include "lighting.glsl"

out vec4 fragColor;

void main() {
  vec3 n = normalize(vNormal);
  vec3 v = normalize(-vViewPos);
  if (dot(n, v) < 0.0) n = -n;
  vec3 albedo = toLinear(mix(vColor.rgb, vec3(0.85, 0.9, 1.0), 0.45));
  vec3 c = shade(albedo, n, v, 0.7);
  float facing = max(dot(n, v), 0.0);
  float alpha = 0.16 + 0.42 * pow(1.0 - facing, 2.5);
  fragColor = vec4(toDisplay(c), alpha);
}
