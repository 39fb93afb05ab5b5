#pragma once
// Finite pictures of the World's walls for ParaView. An infinite plane (or membrane) is drawn as its
// intersection with a `domain` box, a polygon of 3 to 6 corners; a box wall, being six planes, comes
// out as its six faces when the domain is the box. A spherical cavity is a triangulated sphere.
#include <vector>

#include <Eigen/Geometry>

#include "core/export/VtkSurface.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

using Box3 = Eigen::AlignedBox3d;

// The region to draw planes in: the bounding box of `points` (pebble centres, widened by
// `margin` [m]) merged with every wall's reference point (plane points, cavity centre +- radius),
// cut back to the allowed side of every axis-aligned plane (so a box wall is drawn as exactly its
// faces), and given some depth along any axis it is flat in.
Box3 wallDrawingDomain(const std::vector<Vec3>& points, double margin, const std::vector<Wall>& walls);

// One surface per wall, in WorldModel::walls order; a plane that misses the domain, or a kind of wall
// drawn elsewhere (VtkSeriesWriter::addSurfaceSource: mesh walls), gives an empty one.
std::vector<VtkSurface> wallSurfaces(const std::vector<Wall>& walls, const Box3& domain);

// The polygon where the plane through `point` with unit `normal` cuts `box` (corners ordered
// counter-clockwise about `normal`; empty if they do not meet in an area).
std::vector<Vec3> planeInBox(const Vec3& point, const Vec3& normal, const Box3& box);

}  // namespace clumplab
