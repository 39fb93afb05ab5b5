#version 330 core
// A template's source mesh (body frame), one instance per body of that template.
layout(location = 0) in vec3 aPosition;  // body frame [m]
layout(location = 1) in vec3 aNormal;    // body frame, unit (flat, per triangle)
layout(location = 2) in uint aBody;      // per instance

#include "pose.glsl"

uniform mat4 uView;
uniform mat4 uProjection;

out vec3 vViewPos;
out vec3 vNormal;
flat out vec4 vColor;

void main() {
  Pose pose = fetchPose(aBody);
  vec3 w = pose.position + rotate(pose.rotation, aPosition);
  vViewPos = (uView * vec4(w, 1.0)).xyz;
  vNormal = mat3(uView) * rotate(pose.rotation, aNormal);
  vColor = pose.color;
  gl_Position = uProjection * vec4(vViewPos, 1.0);
}
