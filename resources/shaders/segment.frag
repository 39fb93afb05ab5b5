#version 330 core
// Coverage of a round-capped line from the pixel's distance to the segment.
noperspective in vec2 vLinePx;
flat in float vLineLengthPx;
flat in float vLineHalfWidthPx;
in vec4 vColor;

uniform float uAlphaScale;  // 1, or lower for the parts hidden behind surfaces

out vec4 fragColor;

void main() {
  float along = vLinePx.x < 0.0 ? -vLinePx.x : max(vLinePx.x - vLineLengthPx, 0.0);
  float dist = length(vec2(along, vLinePx.y));
  // Lines thinner than a pixel keep a pixel's footprint and fade instead.
  float halfWidth = max(vLineHalfWidthPx, 0.5);
  float coverage = clamp(halfWidth + 0.5 - dist, 0.0, 1.0) * min(vLineHalfWidthPx / 0.5, 1.0);
  float alpha = vColor.a * coverage * uAlphaScale;
  if (alpha <= 0.004) discard;
  fragColor = vec4(vColor.rgb, alpha);
}
