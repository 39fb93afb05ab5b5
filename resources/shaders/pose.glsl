// Per-body poses from the texture buffer: 3 texels a body: (position, flags), (quaternion x y z w),
// (colour sRGB, alpha).
uniform samplerBuffer uPoses;

struct Pose {
  vec3 position;
  float flags;
  vec4 rotation;
  vec4 color;
};

Pose fetchPose(uint body) {
  int i = int(body) * 3;
  vec4 a = texelFetch(uPoses, i);
  Pose p;
  p.position = a.xyz;
  p.flags = a.w;
  p.rotation = texelFetch(uPoses, i + 1);
  p.color = texelFetch(uPoses, i + 2);
  return p;
}

// v rotated by the unit quaternion q.
vec3 rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }
