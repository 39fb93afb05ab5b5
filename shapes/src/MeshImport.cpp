// importMesh: structure checks of STL files (Assimp's reader is lenient with truncated files),
// reading the others through Assimp (AssimpReader.cpp), then prepareMesh.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "AssimpReader.hpp"
#include "core/base/Errors.hpp"
#include "core/base/ResourceLimits.hpp"
#include "shapes/MeshImport.hpp"

namespace clumplab::shapes {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Reads an ASCII STL line by line, checking it: facets complete, three finite vertices and a normal of
// three numbers each, endsolid present. Coordinates are rounded to float, as STL files mean them.
void readAsciiStl(const std::string& path, std::istream& in, TriangleMesh& soup) {
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
      std::string normal, n[3];
      words >> normal >> n[0] >> n[1] >> n[2];
      for (const std::string& v : n) {
        char* end = nullptr;
        (void)std::strtod(v.c_str(), &end);
        if (lower(normal) != "normal" || v.empty() || *end != '\0')
          throw InputError(path, at, "expected \"facet normal\" and three numbers");
      }
      inFacet = true;
      vertices = 0;
    } else if (word == "vertex") {
      if (!inFacet || vertices >= 3) throw InputError(path, at, "a vertex outside a facet, or a fourth one");
      std::string x[3];
      words >> x[0] >> x[1] >> x[2];
      Vec3 corner;
      for (int a = 0; a < 3; ++a) {
        const std::string& v = x[a];
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0') throw InputError(path, at, "a vertex needs three numbers");
        if (!std::isfinite(d))
          throw InputError(path, at, "a vertex coordinate is not a finite number (" + v + ")");
        if (std::abs(d) > std::numeric_limits<float>::max()) {
          throw InputError(
              path, at,
              "a vertex coordinate (" + v + ") is beyond the 32-bit floats STL files hold (3.4e38)");
        }
        corner[a] = static_cast<double>(static_cast<float>(d));
      }
      soup.vertices.push_back(corner);
      ++vertices;
    } else if (word == "endfacet") {
      if (vertices != 3) {
        throw InputError(path, at, "a facet has " + std::to_string(vertices) + " vertices, expected 3");
      }
      inFacet = false;
      ++facets;
      const auto first = static_cast<std::uint32_t>(soup.vertices.size() - 3);
      soup.triangles.push_back({first, first + 1, first + 2});
    } else if (word == "endsolid") {
      ended = true;
    } else if (word != "solid" && word != "outer" && word != "endloop") {
      throw InputError(
          path, at,
          "unexpected \"" + word.substr(0, 40) +
              "\" (an ASCII STL holds solid, facet, outer loop, vertex, endloop, endfacet, endsolid)");
    }
  }
  if (inFacet || !ended) {
    throw InputError(path, "",
                     "truncated ASCII STL: it ends after " + std::to_string(facets) +
                         " complete facets without \"endsolid\"");
  }
  if (facets == 0) throw InputError(path, "", "the ASCII STL holds no facets");
}

// Streams a binary STL's triangles (after the 84-byte header) in blocks into `soup`, or, without one,
// only checks them: a file of only degenerate triangles, or one with a coordinate that is not finite,
// is refused with the memory of one block (a hostile 10^7-triangle file must not cost gigabytes).
void readBinaryStlTriangles(const std::string& path, std::ifstream& in, std::uint32_t count,
                            TriangleMesh* soup) {
  constexpr std::size_t kRecord = 50, kBlock = 65536;
  std::vector<char> block(kRecord * std::min<std::size_t>(kBlock, count));  // a small file, a small block
  std::uint64_t withArea = 0;
  for (std::uint32_t first = 0; first < count;) {
    const std::uint32_t n = std::min<std::uint32_t>(static_cast<std::uint32_t>(kBlock), count - first);
    in.read(block.data(), static_cast<std::streamsize>(kRecord * n));
    if (static_cast<std::size_t>(in.gcount()) != kRecord * n) {
      throw InputError(path, "", "cannot read triangle " + std::to_string(first) + " of the binary STL");
    }
    for (std::uint32_t t = 0; t < n; ++t) {
      float c[9];
      std::memcpy(c, block.data() + kRecord * t + 12, sizeof c);  // after the facet normal
      for (const float x : c) {
        if (!std::isfinite(x)) {
          throw InputError(
              path, "",
              "triangle " + std::to_string(first + t) + " has a coordinate that is not a finite number");
        }
      }
      const Vec3 a(c[0], c[1], c[2]), b(c[3], c[4], c[5]), d(c[6], c[7], c[8]);
      if ((b - a).cross(d - a).squaredNorm() > 0.0) ++withArea;
      if (soup == nullptr) continue;
      const auto corner = static_cast<std::uint32_t>(soup->vertices.size());
      soup->vertices.insert(soup->vertices.end(), {a, b, d});
      soup->triangles.push_back({corner, corner + 1, corner + 2});
    }
    first += n;
  }
  if (withArea == 0) {
    throw InputError(path, "",
                     "every triangle is degenerate (zero area): all " + std::to_string(count) + " of them");
  }
}

// Binary or ASCII, checked and read into `soup` (our own reader: Assimp's leaks memory on some
// malformed files, as the fuzzer found). Returns the format's name.
std::string readStl(const std::string& path, std::uintmax_t size, std::size_t maxTriangles,
                    TriangleMesh& soup) {
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
      throw LimitError(
          path, "", std::to_string(count) + " triangles exceed the limit of " + std::to_string(maxTriangles),
          "triangles", count);
    }
    if (count == 0) throw InputError(path, "", "the binary STL holds no triangles");
    readBinaryStlTriangles(path, in, count, nullptr);  // checked first, in bounded memory
    in.clear();
    in.seekg(84);
    soup.vertices.reserve(3ull * count);
    soup.triangles.reserve(count);
    readBinaryStlTriangles(path, in, count, &soup);
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
      readAsciiStl(path, lines, soup);
      if (soup.triangles.size() > maxTriangles) {
        throw LimitError(path, "",
                         std::to_string(soup.triangles.size()) + " triangles exceed the limit of " +
                             std::to_string(maxTriangles),
                         "triangles", soup.triangles.size());
      }
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

// An ASCII OFF's header ("OFF", then the vertex, face and edge counts) checked against the file's
// size and the triangle limit before a reader sees it: Assimp's takes the counts at their word and
// reserves memory for them (a header announcing 3.5e11 vertices made it hold 15 GB within 20 s).
// Each vertex takes at least 6 bytes ("0 0 0\n"), each face 8 ("3 0 1 2\n"). Other headers (binary
// OFF, or none) are left to the reader.
void checkOffHeader(const std::string& path, std::uintmax_t size, std::size_t maxTriangles) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::string> words;
  while (words.size() < 4 && std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream split(line);
    for (std::string w; words.size() < 4 && split >> w;) words.push_back(w);
  }
  if (words.size() < 3 || lower(words[0]).find("off") == std::string::npos ||
      lower(words[0]).find("binary") != std::string::npos)
    return;
  unsigned long long vertices = 0, faces = 0;
  try {
    std::size_t end = 0;
    vertices = std::stoull(words[1], &end);
    if (end != words[1].size()) return;
    faces = std::stoull(words[2], &end);
    if (end != words[2].size()) return;
  } catch (const std::exception&) {
    return;  // not counts: the reader will say what is wrong
  }
  if (faces > maxTriangles) {
    throw LimitError(path, "",
                     "its header announces " + std::to_string(faces) + " faces, more than the limit of " +
                         std::to_string(maxTriangles) + " triangles",
                     "triangles", faces);
  }
  if (vertices > size / 6 || 6 * vertices + 8 * faces > size) {
    throw InputError(path, "",
                     "truncated or corrupt OFF: its header announces " + std::to_string(vertices) +
                         " vertices and " + std::to_string(faces) + " faces, more than its " +
                         std::to_string(size) + " bytes can hold");
  }
}

}  // namespace

const std::vector<std::string>& meshFileExtensions() {
  static const std::vector<std::string> extensions = [] {
    std::vector<std::string> e = detail::assimpExtensions();
    e.emplace_back("stl");  // read here, whatever Assimp was built with
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end()), e.end());
    return e;
  }();
  return extensions;
}

bool isMeshFileName(const std::string& path) {
  const std::string extension = lower(fs::path(path).extension().string());
  if (extension.size() < 2) return false;
  const std::vector<std::string>& known = meshFileExtensions();
  return std::binary_search(known.begin(), known.end(), extension.substr(1));
}

PreparedMesh importMesh(const std::string& path, const MeshOptions& options, const WorkProgress& progress) {
  std::string format;
  const TriangleMesh soup = readMeshTriangles(path, options.maxTriangles, &format);
  progress.throwIfCancelled();
  PreparedMesh prepared = prepareMesh(soup, path, options, progress);
  prepared.report.format = format;
  return prepared;
}

TriangleMesh readMeshTriangles(const std::string& path, std::size_t maxTriangles, std::string* formatOut) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, "", "no such file");
  if (!fs::is_regular_file(path, ec)) throw InputError(path, "", "is not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(path, "", "cannot be read: " + ec.message());
  if (size == 0) throw InputError(path, "", "the file is empty");
  if (!std::ifstream(path).good()) throw InputError(path, "", "cannot be opened for reading");
  const std::string extension = lower(fs::path(path).extension().string());
  std::string format = extension.empty() ? "mesh" : extension.substr(1);
  if (extension == ".stl") {
    TriangleMesh soup;
    format = readStl(path, size, maxTriangles, soup);
    if (formatOut != nullptr) *formatOut = format;
    return soup;
  }

  if (extension == ".off") checkOffHeader(path, size, maxTriangles);
  TriangleMesh soup =
      detail::readAssimpTrianglesIsolated(path, format == "mesh" ? std::string() : format, maxTriangles);
  if (formatOut != nullptr) *formatOut = format;
  return soup;
}

}  // namespace clumplab::shapes
