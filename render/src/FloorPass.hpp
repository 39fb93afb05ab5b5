#pragma once
// The floor (floor.vert/.frag): a faint surface with an anti-aliased grid that fades with distance.
#include <memory>

#include "FrameContext.hpp"
#include "ShaderLoader.hpp"
#include "core/base/Math.hpp"

namespace clumplab::render {

struct FloorSpec {
  double height = 0.0;                            // [m] z of the plane
  Vec3 center = Vec3::Zero();                     // [m] (x, y used)
  double halfSize = 1.0;                          // [m] of the square patch drawn
  double fadeRadius = 1.0;                        // [m] from the centre where it has faded out
  double minor = 0.1, major = 1.0;                // grid spacings [m]
  double bounds[4] = {-1e30, -1e30, 1e30, 1e30};  // xmin, ymin, xmax, ymax [m]
};

class FloorPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  void draw(const FrameContext& frame, const FloorSpec& floor);

 private:
  ProceduralProgram shader_;
};

}  // namespace clumplab::render
