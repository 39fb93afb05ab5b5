// Screen-space line segments with round caps: each segment is a quad around its projected ends,
// widened by half the line width plus a pixel; the fragment shader turns the distance to the
// segment into coverage, so lines look anti-aliased without multisampling. Ends behind the near
// plane are first moved onto it. Corner k: bit 0 picks the end, bit 1 the side.
uniform mat4 uProjection;
uniform vec2 uViewport;  // framebuffer pixels

noperspective out vec2 vLinePx;   // (along from the first end, across) in pixels
flat out float vLineLengthPx;
flat out float vLineHalfWidthPx;

void emitSegment(vec3 p0View, vec3 p1View, float widthPx, int corner) {
  vec4 c0 = uProjection * vec4(p0View, 1.0);
  vec4 c1 = uProjection * vec4(p1View, 1.0);
  const float wMin = 1e-6;
  // Nothing to draw when both ends are behind the eye or both nearer than the near plane (the
  // clipping below would collapse the segment into a dot on the near plane).
  float n0d = c0.z + c0.w, n1d = c1.z + c1.w;
  if ((c0.w < wMin && c1.w < wMin) || (n0d < 0.0 && n1d < 0.0)) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    vLinePx = vec2(1e6);
    vLineLengthPx = 0.0;
    vLineHalfWidthPx = 0.0;
    return;
  }
  // Clip against the near plane (z_clip = -w_clip) so both ends project sensibly.
  float d0 = c0.z + c0.w, d1 = c1.z + c1.w;
  if (d0 < 0.0) c0 = mix(c0, c1, d0 / (d0 - d1));
  if (d1 < 0.0) c1 = mix(c1, c0, d1 / (d1 - d0));
  vec3 n0 = c0.xyz / c0.w, n1 = c1.xyz / c1.w;
  vec2 s0 = (n0.xy * 0.5 + 0.5) * uViewport, s1 = (n1.xy * 0.5 + 0.5) * uViewport;
  vec2 delta = s1 - s0;
  float len = length(delta);
  vec2 dir = len > 1e-4 ? delta / len : vec2(1.0, 0.0);
  vec2 side = vec2(-dir.y, dir.x);
  float halfWidth = 0.5 * widthPx;
  float extent = halfWidth + 1.0;
  bool atEnd = (corner & 1) != 0;
  float across = (corner & 2) != 0 ? extent : -extent;
  vec2 s = (atEnd ? s1 + dir * extent : s0 - dir * extent) + side * across;
  float z = atEnd ? n1.z : n0.z;
  gl_Position = vec4(s / uViewport * 2.0 - 1.0, z, 1.0);
  vLinePx = vec2(atEnd ? len + extent : -extent, across);
  vLineLengthPx = len;
  vLineHalfWidthPx = halfWidth;
}
