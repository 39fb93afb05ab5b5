// importMesh: structure checks of STL files (Assimp's reader is lenient with truncated files),
// reading through Assimp, then prepareMesh.
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Errors.hpp"
#include "shapes/MeshImport.hpp"

#include "core/ResourceLimits.hpp"

namespace clumplab::shapes {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Checks an ASCII STL line by line: facets complete, three finite vertices each, endsolid present.
void checkAsciiStl(const std::string& path, std::istream& in) {
  std::string line;
  std::size_t facets = 0, vertices = 0, lineNumber = 0;
  bool ended = false, inFacet = false;
  while (std::getline(in, line)) {
    ++lineNumber;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    word = lower(word);
    const std::string at = "line " + std::to_string(lineNumber);
    if (word == "facet") {
      if (inFacet)
        throw InputError(path, at, "a facet starts before the previous one ended (endfacet missing)");
      inFacet = true;
      vertices = 0;
    } else if (word == "vertex") {
      std::string x[3];
      words >> x[0] >> x[1] >> x[2];
      for (const std::string& v : x) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0') throw InputError(path, at, "a vertex needs three numbers");
        if (!std::isfinite(d))
          throw InputError(path, at, "a vertex coordinate is not a finite number (" + v + ")");
      }
      ++vertices;
    } else if (word == "endfacet") {
      if (vertices != 3) {
        throw InputError(path, at, "a facet has " + std::to_string(vertices) + " vertices, expected 3");
      }
      inFacet = false;
      ++facets;
    } else if (word == "endsolid") {
      ended = true;
    }
  }
  if (inFacet || !ended) {
    throw InputError(path, "",
                     "truncated ASCII STL: it ends after " + std::to_string(facets) +
                         " complete facets without \"endsolid\"");
  }
  if (facets == 0) throw InputError(path, "", "the ASCII STL holds no facets");
}

// Binary or ASCII, and whether the file is complete. Returns the format's name.
std::string checkStl(const std::string& path, std::uintmax_t size, std::size_t maxTriangles) {
  std::ifstream in(path, std::ios::binary);
  char header[84] = {};
  in.read(header, 84);
  const auto got = static_cast<std::size_t>(in.gcount());
  std::uint32_t count = 0;
  if (got == 84) std::memcpy(&count, header + 80, 4);  // little-endian on every platform we build for
  const bool sizeFits = got == 84 && size == 84 + 50ull * count;
  std::string start(header, std::min<std::size_t>(got, 80));
  start.erase(0, start.find_first_not_of(" \t\r\n"));
  const bool saysSolid = lower(start.substr(0, 5)) == "solid";
  if (sizeFits) {
    if (count > maxTriangles) {
      throw InputError(path, "",
                       std::to_string(count) + " triangles exceed the limit of " +
                           std::to_string(maxTriangles) + " (" + howToRaise("triangles") + ")");
    }
    if (count == 0) throw InputError(path, "", "the binary STL holds no triangles");
    return "binary STL";
  }
  if (saysSolid) {
    // ASCII, unless binary bytes say otherwise.
    in.clear();
    in.seekg(0);
    std::ostringstream whole;
    whole << in.rdbuf();
    const std::string text = whole.str();
    const bool printable = std::all_of(text.begin(), text.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u == '\n' || u == '\r' || u == '\t' || (u >= 32 && u < 127);
    });
    if (printable) {
      std::istringstream lines(text);
      checkAsciiStl(path, lines);
      return "ASCII STL";
    }
  }
  if (got < 84)
    throw InputError(path, "", "too short to be an STL file (" + std::to_string(size) + " bytes)");
  throw InputError(path, "",
                   "truncated or corrupt binary STL: its header announces " + std::to_string(count) +
                       " triangles (" + std::to_string(84 + 50ull * count) + " bytes) but the file has " +
                       std::to_string(size) + " bytes");
}

}  // namespace

PreparedMesh importMesh(const std::string& path, const MeshOptions& options) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, "", "no such file");
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "", "is not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path, "", "cannot be read: " + ec.message());
  if (size == 0) throw InputError(path, "", "the file is empty");
  if (!std::ifstream(path).good()) throw InputError(path, "", "cannot be opened for reading");
  const std::string extension = lower(fs::path(path).extension().string());
  std::string format = extension.empty() ? "mesh" : extension.substr(1);
  if (extension == ".stl") format = checkStl(path, size, options.maxTriangles);

  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (scene == nullptr) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unknown format";
    throw InputError(path, "", "cannot be read as a mesh: " + why);
  }
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
    if (soup.triangles.size() > options.maxTriangles) break;  // prepareMesh reports it
  }
  PreparedMesh prepared = prepareMesh(soup, path, options);
  prepared.report.format = format;
  return prepared;
}

}  // namespace clumplab::shapes
