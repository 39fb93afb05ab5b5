#version 330 core
in vec2 vLocal;
flat in float vStretch;
flat in float vStrength;

out vec4 fragColor;

void main() {
  // Distance to the shaft's shadow (a point for a sphere), in disc radii.
  vec2 q = vec2(max(abs(vLocal.x) - vStretch, 0.0), vLocal.y);
  float d2 = dot(q, q);
  if (d2 >= 1.0) discard;
  float s = vStrength * (1.0 - smoothstep(0.0, 1.0, d2)) ;
  // Multiplied into the framebuffer (blend: zero, source colour).
  fragColor = vec4(vec3(1.0 - s), 1.0);
}
