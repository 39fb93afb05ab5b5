#version 330 core
// PaLa wireframe (Mutze, Polyspherical grains, §8), one instance a pebble, 4 segments of 6 vertices: the line from the
// body's centre of mass to the pebble centre, and three orthogonal radii of full length, the first
// along the line from the centre of mass (any two perpendicular ones complete it). A spherocylinder
// shows its shaft instead of the first line, the first radius continuing the shaft to the tip of a
// cap and the other two across the shaft at its centre.
layout(location = 0) in vec4 aPebble;  // body-frame centre [m], radius [m]
layout(location = 1) in uint aBody;
layout(location = 2) in vec3 aShaft;  // body-frame half shaft [m] (zero for a sphere)

#include "pose.glsl"

uniform mat4 uView;
uniform float uPixelRatio;
uniform float uLineWidth;  // logical pixels

#include "lines.glsl"

out vec4 vColor;

void main() {
  Pose pose = fetchPose(aBody);
  int segment = gl_VertexID / 6;
  int corners[6] = int[6](0, 1, 2, 2, 1, 3);
  int corner = corners[gl_VertexID % 6];

  vec3 c = aPebble.xyz;
  float r = aPebble.w;
  float lc = length(c), ls = length(aShaft);
  bool capsule = ls > 0.0;
  vec3 e1 = capsule ? aShaft / ls : (lc > 1e-6 * r ? c / lc : vec3(1.0, 0.0, 0.0));
  vec3 helper = abs(e1.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
  vec3 e2 = normalize(cross(e1, helper));
  vec3 e3 = cross(e1, e2);

  vec3 a, b;  // body frame
  if (segment == 0) {
    a = capsule ? c - aShaft : vec3(0.0);
    b = capsule ? c + aShaft : c;
  } else {
    a = capsule && segment == 1 ? c + aShaft : c;
    b = a + r * (segment == 1 ? e1 : (segment == 2 ? e2 : e3));
  }
  vec3 wa = pose.position + rotate(pose.rotation, a);
  vec3 wb = pose.position + rotate(pose.rotation, b);
  // The centre-of-mass spokes a little darker than the radii.
  vColor = vec4(segment == 0 ? pose.color.rgb * 0.8 : min(pose.color.rgb * 1.15, vec3(1.0)), 1.0);
  if (pose.flags > 0.5) vColor.rgb = mix(vColor.rgb, vec3(1.0, 0.85, 0.4), 0.6);
  emitSegment((uView * vec4(wa, 1.0)).xyz, (uView * vec4(wb, 1.0)).xyz, uLineWidth * uPixelRatio, corner);
}
