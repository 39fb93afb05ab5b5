#include "AssimpReader.hpp"

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

}  // namespace clumplab::shapes::detail
