#pragma once
// Writing scene files ("clumplab-scene/1" with the extensions listed in Scene.hpp), from a loaded
// scene or from the live world (the GUI's "Save scene"). loadScene of a saved file builds a World
// with the saved world's bodies, templates, settings and clock (see sceneToJson).
#include <string>
#include <vector>

#include "core/scene/Scene.hpp"

namespace clumplab {

// The scene of `world` as it is now: its settings (time step, integrator, gravity, damping, ...),
// contact model, walls, templates and bodies (pose and velocities), and its clock as `startTime`.
// File, description and duration come from `loadedFrom`, and so do the sources of templates made
// from meshes or built-in shapes (matched by identity); a template `loadedFrom` lacks keeps the
// source it records itself (ClumpTemplate::source), if any.
Scene sceneFromWorld(const World& world, const Scene& loadedFrom);

// The scene as JSON text. Templates are written in principal form (pebbles in the principal frame,
// mass and principal moments as they are), with their "source" when they have one, its relative
// paths rewritten against `targetFolder` (where the file will be); scaled copies made by
// "generate" become templates of their own ("name#2", ...). Bodies are written one by one with
// their orientation of the principal frame; six planes that Wall::box made are written as a box.
// Numbers are written in the shortest form that reads back to the same double.
std::string sceneToJson(const Scene& scene, const std::string& targetFolder);

// A contact model as the scene file's "contact" object (JSON text; contactFromJson reads it).
std::string contactToJson(const ContactModel& contact);

// The key sceneToJson gives each template: its name, or "name#2", "name#3", ... for the copies
// that share it (in the order of `templates`).
std::vector<std::string> templateKeys(const std::vector<TemplatePtr>& templates);

// Writes sceneToJson(scene, folder of `path`) to `path` through a temporary file in the same folder
// renamed over it (atomic). Throws InputError naming `path` on failure; an old file stays intact.
void saveScene(const Scene& scene, const std::string& path);

}  // namespace clumplab
