#version 330 core
#extension GL_ARB_conservative_depth : enable
// Ray-cast sphere: the view ray through this pixel against the pebble; misses are discarded (or
// fade out over the last pixel for alpha-to-coverage), hits write their true depth and are lit.
in vec3 vViewPos;
flat in vec3 vCenter;
flat in float vRadius;
flat in vec4 vColor;
flat in float vFlags;

uniform mat4 uProjection;
uniform float uFocalPx;
uniform float uAlphaCutoff;  // 0.5 without multisampling: exactly the pixels whose centre is inside
uniform vec3 uSelectColor;

#include "lighting.glsl"

out vec4 fragColor;
#ifdef GL_ARB_conservative_depth
layout(depth_greater) out float gl_FragDepth;
#endif

void main() {
  vec3 d = normalize(vViewPos);
  float b = dot(d, vCenter);
  float perp2 = max(dot(vCenter, vCenter) - b * b, 0.0);
  float perp = sqrt(perp2);
  // How far (in pixels) this pixel's ray passes outside the silhouette; negative inside.
  float outsidePx = (perp - vRadius) * uFocalPx / b;
  float coverage = clamp(0.5 - outsidePx, 0.0, 1.0);
  if (coverage < uAlphaCutoff || coverage <= 0.0) discard;

  float t = perp < vRadius ? b - sqrt(vRadius * vRadius - perp2) : b;
  vec3 hit = d * t;
  vec3 n = (hit - vCenter) / vRadius;
  n = normalize(n);
  vec4 clip = uProjection * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * (clip.z / clip.w) + 0.5;

  vec3 c = shade(vColor.rgb, n, -d, 0.55);
  if (vFlags > 0.5) {  // selected: a warm tint and a narrow bright rim
    float edge = 1.0 - max(dot(n, -d), 0.0);
    float rim = edge * edge * edge;
    vec3 select = toLinear(uSelectColor);
    c = mix(c, c * select * 1.6, 0.35) + 0.9 * rim * select;
  }
  fragColor = vec4(toDisplay(c), coverage);
}
