#version 330 core
// A vertical gradient, lighter at the top, with a faint vignette and a little noise against banding.
in vec2 vUv;

uniform vec3 uTop;     // sRGB
uniform vec3 uBottom;  // sRGB

out vec4 fragColor;

void main() {
  float t = smoothstep(0.0, 1.0, vUv.y);
  vec3 c = mix(uBottom, uTop, t);
  vec2 q = vUv - 0.5;
  c *= 1.0 - 0.22 * dot(q, q);
  // Interleaved gradient noise: a cheap dither of half a level.
  float noise = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
  c += (noise - 0.5) / 255.0;
  fragColor = vec4(c, 1.0);
}
