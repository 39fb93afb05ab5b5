// Shared shading: sRGB in and out, lighting in linear light. A warm key light, a cool fill, a
// sky/ground hemisphere ambient, Blinn-Phong specular and a soft rim.
uniform vec3 uKeyLight;   // view space, unit, towards the light
uniform vec3 uFillLight;  // view space, unit
uniform vec3 uWorldUp;    // world +z in view space

vec3 toLinear(vec3 c) { return pow(max(c, vec3(0.0)), vec3(2.2)); }

// Filmic-ish shoulder so highlights roll off instead of clipping, then gamma.
vec3 toDisplay(vec3 c) {
  c = c / (1.0 + 0.18 * c);
  return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2));
}

vec3 shade(vec3 albedoLinear, vec3 n, vec3 v, float specularStrength, float shininess) {
  float key = max(dot(n, uKeyLight), 0.0);
  float fill = max(dot(n, uFillLight), 0.0);
  float hemi = 0.5 + 0.5 * dot(n, uWorldUp);
  vec3 ambient = mix(vec3(0.07, 0.065, 0.06), vec3(0.30, 0.33, 0.38), hemi);
  vec3 h = normalize(uKeyLight + v);
  float spec = key > 0.0 ? pow(max(dot(n, h), 0.0), shininess) : 0.0;
  float fresnel = pow(1.0 - max(dot(n, v), 0.0), 5.0);
  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * (0.35 + 0.65 * hemi);
  vec3 c = albedoLinear * (ambient + 1.15 * key * vec3(1.0, 0.96, 0.90) + 0.30 * fill * vec3(0.75, 0.85, 1.0));
  c += specularStrength * (spec + 0.25 * fresnel) * vec3(1.0, 0.98, 0.95);
  c += 0.10 * rim * vec3(0.75, 0.85, 1.0);
  return c;
}
