#pragma once
// Registers the resources embedded in the `resources` library (shaders at :/shaders/...). Call once
// before the first use; calling again does nothing. Safe from any thread before or after
// QCoreApplication exists.
namespace clumplab {

void initResources();

}  // namespace clumplab
