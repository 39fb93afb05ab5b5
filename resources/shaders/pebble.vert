#version 330 core
// Sphere and spherocylinder impostors: one quad a pebble, perpendicular to the line from the eye to
// the pebble's centre, just large enough to cover the cone of rays tangent to the sphere (for a
// spherocylinder, the sphere about its shaft's centre that holds it), plus a margin for
// anti-aliasing. The pebble is placed from its body-frame centre and its body's pose.
layout(location = 0) in vec4 aPebble;  // body-frame centre [m], radius [m]
layout(location = 1) in uint aBody;
layout(location = 2) in vec3 aShaft;  // body-frame half shaft [m] (zero for a sphere)

#include "pose.glsl"

uniform mat4 uView;
uniform mat4 uProjection;
uniform float uFocalPx;  // framebuffer pixels per unit tan

out vec3 vViewPos;
flat out vec3 vCenter;
flat out float vRadius;
flat out vec3 vShaft;  // view space half shaft [m]
flat out vec4 vColor;  // linear
flat out float vFlags;

void main() {
  Pose pose = fetchPose(aBody);
  vec3 world = pose.position + rotate(pose.rotation, aPebble.xyz);
  vec3 c = (uView * vec4(world, 1.0)).xyz;
  float r = aPebble.w;
  vShaft = mat3(uView) * rotate(pose.rotation, aShaft);
  float reach = r + length(vShaft);  // the bounding sphere's radius
  float l = length(c);
  vCenter = c;
  vRadius = r;
  vColor = vec4(pose.color.rgb * pose.color.rgb, pose.color.a);  // linear (gamma 2), once a vertex
  vFlags = pose.flags;
  if (l <= reach * 1.0001 || c.z > 0.0) {  // eye inside or sphere behind: nothing to draw
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    vViewPos = vec3(0.0);
    return;
  }
  vec3 axis = c / l;
  vec3 u = normalize(cross(axis, abs(axis.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
  vec3 v = cross(u, axis);
  // The quad lies in the plane touching the bounding sphere's nearest point (so every depth the
  // fragment shader writes is behind the quad's own: conservative depth lets the rasteriser reject
  // hidden fragments before shading), sized to the tangent cone there, plus 1.5 px.
  float front = l - reach;
  float halfSize = front * reach / sqrt(l * l - reach * reach) + 1.5 * front / uFocalPx;
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
  vViewPos = axis * front + halfSize * (corner.x * u + corner.y * v);
  gl_Position = uProjection * vec4(vViewPos, 1.0);
}
