#version 330 core
// The floor: a faint surface with minor and major grid lines, anti-aliased with screen-space
// derivatives, the minor lines fading before they would shimmer, everything fading with distance
// from the scene's centre.
in vec3 vWorld;

uniform vec2 uCenter;
uniform float uFadeRadius;  // [m] from uCenter where the floor has faded out
uniform float uMinor;       // grid spacings [m]
uniform float uMajor;
uniform vec3 uSurface;      // sRGB
uniform vec3 uLineColor;    // sRGB
uniform vec4 uBounds;       // xmin, ymin, xmax, ymax [m]: hard edges for a box floor; huge otherwise

out vec4 fragColor;

float gridCoverage(vec2 p, float spacing, float widthPx) {
  vec2 coord = p / spacing;
  vec2 w = fwidth(coord);
  vec2 dist = abs(fract(coord - 0.5) - 0.5) / max(w, vec2(1e-6));
  float line = min(dist.x, dist.y);
  float cov = 1.0 - clamp(line - 0.5 * widthPx + 0.5, 0.0, 1.0);
  // Fade lines whose spacing approaches the pixel size.
  return cov * (1.0 - smoothstep(0.15, 0.45, max(w.x, w.y)));
}

void main() {
  vec2 p = vWorld.xy;
  if (p.x < uBounds.x || p.y < uBounds.y || p.x > uBounds.z || p.y > uBounds.w) discard;
  float fade = 1.0 - smoothstep(0.35 * uFadeRadius, uFadeRadius, length(p - uCenter));
  if (fade <= 0.0) discard;
  float minor = gridCoverage(p, uMinor, 1.0);
  float major = gridCoverage(p, uMajor, 1.6);
  float line = max(0.45 * minor, 0.9 * major);
  float surfaceAlpha = 0.55;
  vec3 c = mix(uSurface, uLineColor, line);
  float alpha = mix(surfaceAlpha, 0.9, line) * fade;
  fragColor = vec4(c, alpha);
}
