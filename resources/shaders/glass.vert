#version 330 core
// One large sphere (a spherical cavity) as an impostor quad, like pebble.vert but from uniforms.
// With the eye inside the sphere the quad covers the whole viewport.
uniform mat4 uView;
uniform mat4 uProjection;
uniform vec3 uCenterWorld;
uniform float uRadius;
uniform float uFocalPx;

out vec3 vViewPos;

void main() {
  vec3 c = (uView * vec4(uCenterWorld, 1.0)).xyz;
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  float l = length(c);
  if (l <= uRadius * 1.001 || c.z > -uRadius) {
    // Inside or very close: a full-screen quad just beyond the near plane.
    vec4 p = vec4(corner, -0.999, 1.0);
    vec4 v = inverse(uProjection) * p;
    vViewPos = v.xyz / v.w;
    gl_Position = p;
    return;
  }
  vec3 axis = c / l;
  vec3 u = normalize(cross(axis, abs(axis.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
  vec3 v = cross(u, axis);
  float halfSize = uRadius * l / sqrt(l * l - uRadius * uRadius) + 2.0 * l / uFocalPx;
  vViewPos = c + halfSize * (corner.x * u + corner.y * v);
  gl_Position = uProjection * vec4(vViewPos, 1.0);
}
