#pragma once
// A clump template as Python holds it: the engine's shared, immutable template. Worlds that take it
// (World.add_body) share it.
#include "core/clump/ClumpTemplate.hpp"

namespace clumplab::python {

struct TemplateHandle {
  TemplatePtr ptr;
};

}  // namespace clumplab::python
