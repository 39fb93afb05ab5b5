#include "LayoutBuffers.hpp"

namespace clumplab::render {

void LayoutBuffers::create(Gl& gl) {
  gl.glGenBuffers(1, &instances_);
  gl.glGenBuffers(1, &poseBuffer_);
  gl.glBindBuffer(GL_TEXTURE_BUFFER, poseBuffer_);
  gl.glBufferData(GL_TEXTURE_BUFFER, 16 * 3, nullptr, GL_STREAM_DRAW);
  gl.glGenTextures(1, &poseTexture_);
  gl.glBindTexture(GL_TEXTURE_BUFFER, poseTexture_);
  gl.glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, poseBuffer_);
  gl.glBindTexture(GL_TEXTURE_BUFFER, 0);
  gl.glBindBuffer(GL_TEXTURE_BUFFER, 0);
  valid_ = false;
}

void LayoutBuffers::destroy(Gl& gl) {
  gl.glDeleteTextures(1, &poseTexture_);
  gl.glDeleteBuffers(1, &poseBuffer_);
  gl.glDeleteBuffers(1, &instances_);
  instances_ = poseBuffer_ = poseTexture_ = 0;
  pebbleCount_ = 0;
  valid_ = false;
}

bool LayoutBuffers::update(Gl& gl, const Snapshot& snapshot) {
  bool same = valid_ && generation_ == snapshot.layoutGeneration && bodyCount_ == snapshot.bodies.size() &&
              templates_.size() == snapshot.templates.size();
  for (std::size_t t = 0; same && t < templates_.size(); ++t) {
    const TemplatePtr held = templates_[t].lock();
    same = held && held == snapshot.templates[t];
  }
  if (same) return false;

  generation_ = snapshot.layoutGeneration;
  bodyCount_ = snapshot.bodies.size();
  templates_.clear();
  for (const TemplatePtr& t : snapshot.templates) templates_.push_back(t);

  std::vector<PebbleInstance> data;
  for (std::size_t b = 0; b < snapshot.bodies.size(); ++b) {
    const std::uint32_t ti = snapshot.bodies.templateIndex[b];
    if (ti >= snapshot.templates.size() || !snapshot.templates[ti]) continue;
    for (const Pebble& p : snapshot.templates[ti]->pebbles) {
      const Vec3 shaft = p.halfLength * p.axis;
      data.push_back(PebbleInstance{
          {static_cast<float>(p.center.x()), static_cast<float>(p.center.y()),
           static_cast<float>(p.center.z())},
          static_cast<float>(p.radius),
          static_cast<std::uint32_t>(b),
          {static_cast<float>(shaft.x()), static_cast<float>(shaft.y()), static_cast<float>(shaft.z())}});
    }
  }
  gl.glBindBuffer(GL_ARRAY_BUFFER, instances_);
  gl.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(PebbleInstance)), data.data(),
                  GL_STATIC_DRAW);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
  pebbleCount_ = static_cast<int>(data.size());
  valid_ = true;
  ++uploads_;
  return true;
}

void LayoutBuffers::uploadPoses(Gl& gl, const Snapshot& snapshot, const std::vector<QColor>& colors,
                                int selectedBody) {
  const SnapshotBodies& bodies = snapshot.bodies;
  poseScratch_.resize(std::max<std::size_t>(1, bodies.size()) * 12, 0.0f);
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    float* out = &poseScratch_[12 * b];
    const Vec3& x = bodies.position[b];
    const Quat& q = bodies.orientation[b];
    const QColor& c = colors[b];
    const float values[12] = {static_cast<float>(x.x()),
                              static_cast<float>(x.y()),
                              static_cast<float>(x.z()),
                              static_cast<int>(b) == selectedBody ? kFlagSelected : 0.0f,
                              static_cast<float>(q.x()),
                              static_cast<float>(q.y()),
                              static_cast<float>(q.z()),
                              static_cast<float>(q.w()),
                              c.redF(),
                              c.greenF(),
                              c.blueF(),
                              c.alphaF()};
    std::copy(values, values + 12, out);
  }
  gl.glBindBuffer(GL_TEXTURE_BUFFER, poseBuffer_);
  // Orphan the old storage so the driver need not wait for the previous frame.
  const auto bytes = static_cast<GLsizeiptr>(poseScratch_.size() * sizeof(float));
  gl.glBufferData(GL_TEXTURE_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
  gl.glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, poseScratch_.data());
  gl.glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

}  // namespace clumplab::render
