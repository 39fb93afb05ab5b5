#version 330 core
#extension GL_ARB_conservative_depth : enable
// Ray-cast sphere or spherocylinder: the view ray through this pixel against the pebble; misses are
// discarded (or fade out over the last pixel for alpha-to-coverage), hits write their true depth and
// are lit. A spherocylinder is a sphere of radius vRadius swept along the segment vCenter +- vShaft.
in vec3 vViewPos;
flat in vec3 vCenter;
flat in float vRadius;
flat in vec3 vShaft;
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

// Where the ray from the eye along the unit d first meets the sphere (centre p, radius r); a huge
// value when it misses.
float raySphere(vec3 d, vec3 p, float r) {
  float b = dot(d, p);
  float h = b * b - dot(p, p) + r * r;
  return h >= 0.0 ? b - sqrt(h) : 1e30;
}

// The nearest point of the segment p0 + s e, s in [0, 1], to the ray t d (t >= 0), as s.
float segmentParameter(vec3 d, vec3 p0, vec3 e) {
  float ee = dot(e, e), de = dot(d, e);
  float a = ee - de * de;  // |e|^2 sin^2: 0 when the shaft points along the ray
  float s = a > 1e-12 * ee ? (de * dot(d, p0) - dot(e, p0)) / a : (dot(d, p0) > 0.0 ? 0.0 : 1.0);
  return clamp(s, 0.0, 1.0);
}

void main() {
  vec3 d = normalize(vViewPos);
  // The sphere to shade: the pebble, or for a spherocylinder the one centred at the shaft point
  // nearest the ray (the ray's first hit lies on the cylinder, on a cap, or on that sphere).
  vec3 center = vCenter;
  float t = 1e30;
  if (dot(vShaft, vShaft) > 0.0) {
    vec3 p0 = vCenter - vShaft, e = 2.0 * vShaft;
    center = p0 + segmentParameter(d, p0, e) * e;
    // The union of two spheres and a cylinder: the first hit is the nearest of the three.
    t = min(raySphere(d, p0, vRadius), raySphere(d, p0 + e, vRadius));
    float ee = dot(e, e), de = dot(d, e);
    float a = ee - de * de;
    if (a > 1e-12 * ee) {
      float b = ee * dot(d, p0) - dot(e, p0) * de;  // ray t d against the infinite cylinder
      float c = ee * dot(p0, p0) - dot(e, p0) * dot(e, p0) - vRadius * vRadius * ee;
      float h = b * b - a * c;
      if (h >= 0.0) {
        float tc = (b - sqrt(h)) / a;
        float y = tc * de - dot(e, p0);  // along the shaft, in units of |e|^2
        if (y > 0.0 && y < ee) t = min(t, tc);
      }
    }
  }
  float b = dot(d, center);
  float perp2 = max(dot(center, center) - b * b, 0.0);
  float perp = sqrt(perp2);
  // How far (in pixels) this pixel's ray passes outside the silhouette; negative inside.
  float outsidePx = (perp - vRadius) * uFocalPx / b;
  float coverage = clamp(0.5 - outsidePx, 0.0, 1.0);
  if (coverage < uAlphaCutoff || coverage <= 0.0) discard;

  if (t >= 1e29) t = perp < vRadius ? b - sqrt(vRadius * vRadius - perp2) : b;
  vec3 hit = d * t;
  // The normal: from the nearest shaft point (a sphere's centre) to the hit.
  vec3 axisPoint = center;
  if (dot(vShaft, vShaft) > 0.0) {
    vec3 p0 = vCenter - vShaft, e = 2.0 * vShaft;
    axisPoint = p0 + clamp(dot(hit - p0, e) / dot(e, e), 0.0, 1.0) * e;
  }
  vec3 n = normalize(hit - axisPoint);
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
