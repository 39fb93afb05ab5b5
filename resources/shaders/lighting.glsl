// Shared shading: sRGB in and out, lighting in (approximately) linear light: gamma 2 both ways, a
// square and a square root, which are far cheaper than pow on a software rasteriser. A warm key
// light, a cool fill, a sky/ground hemisphere ambient, Blinn-Phong specular and a soft rim.
uniform vec3 uKeyLight;   // view space, unit, towards the light
uniform vec3 uFillLight;  // view space, unit
uniform vec3 uWorldUp;    // world +z in view space

vec3 toLinear(vec3 c) { return c * c; }

// A soft shoulder so highlights roll off instead of clipping, then gamma.
vec3 toDisplay(vec3 c) { return sqrt(clamp(c / (1.0 + 0.18 * c), 0.0, 1.0)); }

vec3 shade(vec3 albedoLinear, vec3 n, vec3 v, float specularStrength) {
  float key = max(dot(n, uKeyLight), 0.0);
  float fill = max(dot(n, uFillLight), 0.0);
  float hemi = 0.5 + 0.5 * dot(n, uWorldUp);
  vec3 ambient = mix(vec3(0.07, 0.065, 0.06), vec3(0.30, 0.33, 0.38), hemi);
  vec3 h = normalize(uKeyLight + v);
  // Blinn-Phong, exponent 48 by squaring.
  float s = max(dot(n, h), 0.0);
  float s2 = s * s, s4 = s2 * s2, s8 = s4 * s4, s16 = s8 * s8;
  float spec = key > 0.0 ? s16 * s16 * s16 : 0.0;
  float edge = 1.0 - max(dot(n, v), 0.0);
  float edge2 = edge * edge;
  float fresnel = edge2 * edge2 * edge;
  float rim = edge2 * edge * (0.35 + 0.65 * hemi);
  vec3 c = albedoLinear * (ambient + 1.15 * key * vec3(1.0, 0.96, 0.90) + 0.30 * fill * vec3(0.75, 0.85, 1.0));
  c += specularStrength * (spec + 0.25 * fresnel) * vec3(1.0, 0.98, 0.95);
  c += 0.10 * rim * vec3(0.75, 0.85, 1.0);
  return c;
}
