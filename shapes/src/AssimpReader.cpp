#include "AssimpReader.hpp"

#include <cstring>

#include "ChildProcess.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>

#include "core/base/Errors.hpp"

namespace clumplab::shapes::detail {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What a scene read without dropping points and lines holds; throws when it has no faces.
void refuseWithoutFaces(const std::string& path, const aiScene& scene) {
  std::size_t points = 0, lines = 0, faces = 0;
  for (unsigned k = 0; k < scene.mNumMeshes; ++k) {
    const aiMesh& mesh = *scene.mMeshes[k];
    if (mesh.mNumFaces == 0) points += mesh.mNumVertices;  // a point cloud (PLY without faces)
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const unsigned n = mesh.mFaces[f].mNumIndices;
      points += n == 1;
      lines += n == 2;
      faces += n >= 3;
    }
  }
  if (faces > 0) return;
  if (points == 0 && lines == 0)
    throw InputError(path, "", "holds no mesh: the reader found no vertices or faces in it");
  std::string has = points > 0 ? plural(points, "point", "points") : std::string();
  if (lines > 0) has += (has.empty() ? "" : " and ") + plural(lines, "line segment", "line segments");
  throw InputError(path, "",
                   "has " + has + " but no faces: " +
                       (lines > 0 ? std::string("lines bound no solid")
                                  : "a point cloud bounds no solid (mesh its surface first, e.g. by surface "
                                    "reconstruction)"));
}

// The reader's failure in one sentence: Assimp's own words only where they say something about
// the file, quoted, on one line.
std::string readerProblem(const std::string& path, const std::string& format, std::string why) {
  std::replace_if(
      why.begin(), why.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  while (!why.empty() && (why.back() == ' ' || why.back() == '.')) why.pop_back();
  for (std::size_t at = why.find(path); at != std::string::npos; at = why.find(path))
    why.replace(at, path.size(), "the file");
  if (why.find("No suitable reader") != std::string::npos || why.empty()) {
    return "cannot be read as a mesh: no reader knows " +
           (format.empty() ? std::string("files without an extension") : "." + format + " files") +
           " (ClumpLab reads STL, OBJ, PLY, OFF and the other formats Assimp reads)";
  }
  if (why.find("Unable to open file") != std::string::npos) return "cannot be opened for reading";
  return "cannot be read as a mesh: the " + (format.empty() ? std::string("mesh") : upper(format)) +
         " reader reports \"" + why + "\"";
}

}  // namespace

TriangleMesh readAssimpTriangles(const std::string& path, const std::string& format,
                                 std::size_t maxTriangles) {
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (scene == nullptr) {
    // Points and lines are dropped above, and a scene left without meshes fails; read it again as
    // it is to say what it holds instead of faces.
    Assimp::Importer plain;
    if (const aiScene* asIs = plain.ReadFile(path, aiProcess_SortByPType)) refuseWithoutFaces(path, *asIs);
    throw InputError(path, "", readerProblem(path, format, importer.GetErrorString()));
  }
  refuseWithoutFaces(path, *scene);
  TriangleMesh soup;
  for (unsigned k = 0; k < scene->mNumMeshes; ++k) {
    const aiMesh* mesh = scene->mMeshes[k];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    const auto offset = static_cast<std::uint32_t>(soup.vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      soup.vertices.emplace_back(static_cast<double>(p.x), static_cast<double>(p.y),
                                 static_cast<double>(p.z));
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      soup.triangles.push_back(
          {offset + face.mIndices[0], offset + face.mIndices[1], offset + face.mIndices[2]});
    }
    if (soup.triangles.size() > maxTriangles) break;  // prepareMesh reports it
  }
  return soup;
}

namespace {
// The mesh as bytes through the child's pipe: counts, then the vertices' and triangles' raw arrays.
std::string meshBytes(const TriangleMesh& mesh) {
  const std::uint64_t counts[2] = {mesh.vertices.size(), mesh.triangles.size()};
  std::string bytes(
      sizeof counts + mesh.vertices.size() * sizeof(Vec3) + mesh.triangles.size() * sizeof(mesh.triangles[0]),
      '\0');
  char* at = bytes.data();
  std::memcpy(at, counts, sizeof counts);
  at += sizeof counts;
  for (const Vec3& v : mesh.vertices) {
    const double xyz[3] = {v.x(), v.y(), v.z()};
    std::memcpy(at, xyz, sizeof xyz);
    at += sizeof xyz;
  }
  if (!mesh.triangles.empty())
    std::memcpy(at, mesh.triangles.data(), mesh.triangles.size() * sizeof(mesh.triangles[0]));
  return bytes;
}

TriangleMesh meshFromBytes(const std::string& bytes, const std::string& path) {
  std::uint64_t counts[2] = {0, 0};
  const auto broken = [&] {
    return InputError(path, "", "the mesh reader's process sent back a broken mesh");
  };
  if (bytes.size() < sizeof counts) throw broken();
  std::memcpy(counts, bytes.data(), sizeof counts);
  TriangleMesh mesh;
  const std::uint64_t expected =
      sizeof counts + counts[0] * 3 * sizeof(double) + counts[1] * 3 * sizeof(std::uint32_t);
  if (bytes.size() != expected) throw broken();
  const char* at = bytes.data() + sizeof counts;
  mesh.vertices.resize(counts[0]);
  for (Vec3& v : mesh.vertices) {
    double xyz[3];
    std::memcpy(xyz, at, sizeof xyz);
    at += sizeof xyz;
    v = Vec3(xyz[0], xyz[1], xyz[2]);
  }
  mesh.triangles.resize(counts[1]);
  if (counts[1] > 0) std::memcpy(mesh.triangles.data(), at, counts[1] * sizeof(mesh.triangles[0]));
  return mesh;
}
}  // namespace

TriangleMesh readAssimpTrianglesIsolated(const std::string& path, const std::string& format,
                                         std::size_t maxTriangles) {
  const ChildOutcome outcome =
      runInChildProcess([&] { return meshBytes(readAssimpTriangles(path, format, maxTriangles)); });
  switch (outcome.kind) {
    case ChildOutcome::Kind::Done:
      return meshFromBytes(outcome.bytes, path);
    case ChildOutcome::Kind::Threw: {
      // An InputError's text already begins with the file's name: passed on as it is.
      const std::string prefix = path + ": ";
      const bool named = outcome.bytes.rfind(prefix, 0) == 0;
      throw InputError(path, "", named ? outcome.bytes.substr(prefix.size()) : outcome.bytes);
    }
    case ChildOutcome::Kind::Crashed:
      break;
  }
  throw InputError(path, "",
                   "cannot be read: the reader of " + (format.empty() ? std::string("mesh") : upper(format)) +
                       " files (Assimp) crashed on it (" + outcome.how +
                       "); it ran in a process of its own, so nothing else was lost");
}

std::vector<std::string> assimpExtensions() {
  std::string list;  // "*.3ds;*.obj;..."
  Assimp::Importer().GetExtensionList(list);
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t end = list.find(';', at);
    if (end == std::string::npos) end = list.size();
    std::string pattern = list.substr(at, end - at);
    if (pattern.rfind("*.", 0) == 0) pattern.erase(0, 2);
    std::transform(pattern.begin(), pattern.end(), pattern.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!pattern.empty()) out.push_back(pattern);
    at = end + 1;
  }
  return out;
}

}  // namespace clumplab::shapes::detail
