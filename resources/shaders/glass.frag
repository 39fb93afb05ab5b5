#version 330 core
// A translucent glass-like sphere: the surface the view ray meets first (the far side from inside),
// faint where it faces the viewer, brighter at grazing angles, with a soft highlight.
in vec3 vViewPos;

uniform mat4 uView;
uniform mat4 uProjection;
uniform vec3 uCenterWorld;
uniform float uRadius;
uniform vec3 uTint;  // sRGB

#include "lighting.glsl"

out vec4 fragColor;

void main() {
  vec3 c = (uView * vec4(uCenterWorld, 1.0)).xyz;
  vec3 d = normalize(vViewPos);
  float b = dot(d, c);
  float h = b * b - (dot(c, c) - uRadius * uRadius);
  if (h < 0.0) discard;
  float s = sqrt(h);
  bool inside = dot(c, c) < uRadius * uRadius;
  float t = inside ? b + s : b - s;
  if (t <= 0.0) discard;
  vec3 hit = d * t;
  vec3 n = normalize(hit - c);
  if (inside) n = -n;
  vec4 clip = uProjection * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;
  vec3 v = -d;
  float facing = max(dot(n, v), 0.0);
  vec3 h2 = normalize(uKeyLight + v);
  float spec = 0.8 * pow(max(dot(n, h2), 0.0), 600.0);
  float fresnel = pow(1.0 - facing, 3.0);
  vec3 col = mix(uTint, vec3(1.0), 0.3 * fresnel) + vec3(spec);
  float alpha = clamp(0.05 + 0.45 * fresnel + 0.6 * spec, 0.0, 0.9);
  fragColor = vec4(col, alpha);
}
