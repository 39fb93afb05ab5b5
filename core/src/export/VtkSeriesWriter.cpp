#include "core/export/VtkSeriesWriter.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "VtkXml.hpp"
#include "core/export/PlacedPebbles.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/walls/MeshWall.hpp"
#include "core/world/World.hpp"

namespace clumplab {

namespace fs = std::filesystem;
using vtkxml::integers;
using vtkxml::scalars;
using vtkxml::tuples;

namespace {

std::string stepName(const char* stem, std::size_t step, const char* extension) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s_%06zu.%s", stem, step, extension);
  return buffer;
}

// Points of an UnstructuredGrid of n vertices, one VTK_VERTEX (type 1) cell each.
// `fieldData`: a <FieldData> element for the whole dataset (or "").
void vertexGridOpen(std::ostream& out, const std::vector<Vec3>& points, const std::string& fieldData = "") {
  const std::size_t n = points.size();
  out << "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n<UnstructuredGrid>\n"
      << fieldData << "<Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n << "\">\n<Points>\n";
  tuples(out, "Points", points);
  out << "</Points>\n<Cells>\n";
  std::vector<long long> connectivity(n), offsets(n), types(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    connectivity[i] = static_cast<long long>(i);
    offsets[i] = static_cast<long long>(i) + 1;
  }
  integers(out, "connectivity", connectivity);
  integers(out, "offsets", offsets);
  integers(out, "types", types, "UInt8");
  out << "</Cells>\n";
}

void vertexGridClose(std::ostream& out) {
  out << "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
}

void writePebbles(const std::string& path, const World& world) {
  const BodyState& s = world.bodies();
  const PebbleArrays p = placedPebbles(s, world.model().templates);
  const std::size_t n = p.position.size();
  std::vector<double> radius(p.radius.begin(), p.radius.end());
  std::vector<long long> body(n), templ(n);
  std::vector<Vec3> velocity(n), omega(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t b = p.body[i];
    body[i] = b;
    templ[i] = s.templateIndex[b];
    omega[i] = s.angularVelocity[b];
    velocity[i] = s.velocity[b] + s.angularVelocity[b].cross(p.position[i] - s.position[b]);
  }
  AtomicOutputFile file(path);  // readers (ParaView) never see half a step
  std::ofstream& out = file.stream();
  vertexGridOpen(out, p.position);
  out << "<PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  scalars(out, "radius", radius);
  integers(out, "body", body);
  integers(out, "template", templ);
  tuples(out, "velocity", velocity);
  tuples(out, "angular_velocity", omega);
  if (p.hasCapsules()) {
    tuples(out, "axis", p.axis);
    scalars(out, "half_length", p.halfLength);
  }
  out << "</PointData>\n";
  vertexGridClose(out);
  file.commit();
}

void writeBodies(const std::string& path, const World& world) {
  const BodyState& s = world.bodies();
  const std::size_t n = s.size();
  std::vector<long long> body(n), templ(n);
  std::vector<double> mass(n);
  std::vector<Eigen::Vector4d> orientation(n);
  std::vector<Vec3> axes[3], momentum(n);
  for (auto& a : axes) a.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    body[b] = static_cast<long long>(b);
    templ[b] = s.templateIndex[b];
    mass[b] = s.mass[b];
    const Quat& q = s.orientation[b];
    orientation[b] = Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
    const Mat3 r = q.toRotationMatrix();
    for (int k = 0; k < 3; ++k) axes[k][b] = r.col(k);
    momentum[b] = s.spinAngularMomentum(b);
  }
  std::vector<std::string> names;
  for (const TemplatePtr& t : world.model().templates) names.push_back(t->name);
  std::ostringstream field;
  field << "<FieldData>\n";
  vtkxml::strings(field, "template_names", names);
  field << "<DataArray type=\"Float64\" Name=\"time\" NumberOfTuples=\"1\" format=\"ascii\">\n";
  vtkxml::putNumber(field, world.time());
  field << "\n</DataArray>\n</FieldData>\n";
  AtomicOutputFile file(path);  // readers (ParaView) never see half a step
  std::ofstream& out = file.stream();
  vertexGridOpen(out, s.position, field.str());
  out << "<PointData Vectors=\"velocity\">\n";
  integers(out, "body", body);
  integers(out, "template", templ);
  scalars(out, "mass", mass);
  tuples(out, "principal_moments", s.moments);
  tuples(out, "orientation", orientation);
  tuples(out, "axis_1", axes[0]);
  tuples(out, "axis_2", axes[1]);
  tuples(out, "axis_3", axes[2]);
  tuples(out, "velocity", s.velocity);
  tuples(out, "angular_velocity", s.angularVelocity);
  tuples(out, "angular_momentum", momentum);
  out << "</PointData>\n";
  vertexGridClose(out);
  file.commit();
}

void writeSurfaces(const std::string& path, const std::vector<VtkSurface>& surfaces) {
  std::vector<Vec3> points;
  std::vector<long long> connectivity, offsets, wall, kind;
  for (const VtkSurface& s : surfaces) {
    const long long base = static_cast<long long>(points.size());
    points.insert(points.end(), s.points.begin(), s.points.end());
    const long long code = s.kind == "plane" ? 0 : s.kind == "sphere" ? 1 : s.kind == "membrane" ? 2 : 3;
    for (const std::vector<int>& polygon : s.polygons) {
      for (int i : polygon) connectivity.push_back(base + i);
      offsets.push_back(static_cast<long long>(connectivity.size()));
      wall.push_back(s.wall);
      kind.push_back(code);
    }
  }
  AtomicOutputFile file(path);  // readers (ParaView) never see half a step
  std::ofstream& out = file.stream();
  out << "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
         "<PolyData>\n<Piece NumberOfPoints=\""
      << points.size() << "\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\""
      << offsets.size() << "\">\n<Points>\n";
  tuples(out, "Points", points);
  out << "</Points>\n<Polys>\n";
  integers(out, "connectivity", connectivity);
  integers(out, "offsets", offsets);
  out << "</Polys>\n<CellData Scalars=\"wall\">\n";
  integers(out, "wall", wall);
  integers(out, "kind", kind);
  out << "</CellData>\n</Piece>\n</PolyData>\n</VTKFile>\n";
  file.commit();
}

}  // namespace

VtkSeriesWriter::VtkSeriesWriter(std::string folder) : folder_(std::move(folder)) {
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (!fs::is_directory(folder_, ec))
    throw std::runtime_error(folder_ + ": cannot create the VTK output folder");
}

void VtkSeriesWriter::write(const World& world) {
  const std::size_t step = times_.size();
  if (!domainSet_) {
    double margin = 0.0;
    for (const TemplatePtr& t : world.model().templates) margin = std::max(margin, t->boundingRadius);
    domain_ = wallDrawingDomain(placedPebbles(world.bodies(), world.model().templates).position, 2.0 * margin,
                                world.model().walls);
    domainSet_ = true;
  }
  const fs::path dir(folder_);
  writePebbles((dir / stepName("pebbles", step, "vtu")).string(), world);
  writeBodies((dir / stepName("bodies", step, "vtu")).string(), world);
  std::vector<VtkSurface> surfaces = wallSurfaces(world.model().walls, domain_);
  // Mesh walls, where their imposed motion has them at this time (wall frame -> world).
  for (std::size_t w = 0; w < world.model().walls.size() && w < surfaces.size(); ++w) {
    const Wall& wall = world.model().walls[w];
    if (wall.kind != Wall::Kind::Mesh || !wall.mesh) continue;
    const WallPose pose = wall.mesh->poseAt(world.time());
    const TriangleMesh& mesh = wall.mesh->shape->mesh();
    VtkSurface& surface = surfaces[w];
    surface.kind = "mesh";
    surface.wall = static_cast<int>(w);
    surface.points.clear();
    surface.polygons.clear();
    for (const Vec3& v : mesh.vertices) surface.points.push_back(pose.position + pose.orientation * v);
    for (const auto& t : mesh.triangles) {
      surface.polygons.push_back({static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
    }
  }
  for (const SurfaceSource& source : sources_) {
    std::vector<VtkSurface> more = source(world);
    surfaces.insert(surfaces.end(), more.begin(), more.end());
  }
  writeSurfaces((dir / stepName("walls", step, "vtp")).string(), surfaces);
  times_.push_back(world.time());
  writeCollection();
}

std::vector<std::string> VtkSeriesWriter::files() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < times_.size(); ++i) {
    out.push_back(stepName("pebbles", i, "vtu"));
    out.push_back(stepName("bodies", i, "vtu"));
    out.push_back(stepName("walls", i, "vtp"));
  }
  out.emplace_back("clumplab.pvd");
  return out;
}

void VtkSeriesWriter::writeCollection() const {
  const std::string path = (fs::path(folder_) / "clumplab.pvd").string();
  AtomicOutputFile file(path);  // readers (ParaView) never see half a step
  std::ofstream& out = file.stream();
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
         "byte_order=\"LittleEndian\">\n"
         "<Collection>\n";
  const char* stems[3] = {"pebbles", "bodies", "walls"};
  const char* extensions[3] = {"vtu", "vtu", "vtp"};
  for (std::size_t i = 0; i < times_.size(); ++i) {
    for (int part = 0; part < 3; ++part) {
      out << "<DataSet timestep=\"";
      vtkxml::putNumber(out, times_[i]);
      out << "\" group=\"\" part=\"" << part << "\" name=\"" << stems[part] << "\" file=\""
          << stepName(stems[part], i, extensions[part]) << "\"/>\n";
    }
  }
  out << "</Collection>\n</VTKFile>\n";
  file.commit();
}

}  // namespace clumplab
