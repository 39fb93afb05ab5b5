#version 330 core
in vec2 vLocal;
flat in float vStrength;

out vec4 fragColor;

void main() {
  float d2 = dot(vLocal, vLocal);
  if (d2 >= 1.0) discard;
  float s = vStrength * (1.0 - smoothstep(0.0, 1.0, d2)) ;
  // Multiplied into the framebuffer (blend: zero, source colour).
  fragColor = vec4(vec3(1.0 - s), 1.0);
}
