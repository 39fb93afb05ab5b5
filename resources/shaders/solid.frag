#version 330 core
in vec3 vViewPos;
in vec3 vNormal;
in vec4 vColor;

uniform float uAlphaScale;
uniform float uLit;  // 1: shaded, 0: flat colour

#include "lighting.glsl"

out vec4 fragColor;

void main() {
  vec3 n = normalize(vNormal);
  vec3 v = normalize(-vViewPos);
  if (dot(n, v) < 0.0) n = -n;
  vec3 lit = toDisplay(shade(toLinear(vColor.rgb), n, v, 0.4));
  fragColor = vec4(mix(vColor.rgb, lit, uLit), vColor.a * uAlphaScale);
}
