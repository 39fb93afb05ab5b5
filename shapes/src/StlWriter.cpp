#include "shapes/StlWriter.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/io/AtomicOutputFile.hpp"

namespace clumplab::shapes {

namespace {
void putUint32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xFFu));
}

void putFloat(std::string& out, double v) {
  putUint32(out, std::bit_cast<std::uint32_t>(static_cast<float>(v)));
}

// The unit normal of a triangle from its corners (right-hand rule); zero for a degenerate one.
Vec3 unitNormal(const TriangleMesh& mesh, std::size_t t) {
  const Vec3 n = (mesh.corner(t, 1) - mesh.corner(t, 0)).cross(mesh.corner(t, 2) - mesh.corner(t, 0));
  const double length = n.norm();
  return length > 0.0 ? Vec3(n / length) : Vec3::Zero();
}

}  // namespace

std::string binaryStl(const TriangleMesh& mesh, const std::string& header) {
  if (mesh.size() > UINT32_MAX) throw std::invalid_argument("binary STL holds at most 2^32 - 1 triangles");
  std::string out(80, '\0');
  std::memcpy(out.data(), header.data(), std::min<std::size_t>(header.size(), 80));
  out.reserve(84 + 50 * mesh.size());
  putUint32(out, static_cast<std::uint32_t>(mesh.size()));
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const Vec3 n = unitNormal(mesh, t);
    for (int a = 0; a < 3; ++a) putFloat(out, n[a]);
    for (int k = 0; k < 3; ++k) {
      for (int a = 0; a < 3; ++a) putFloat(out, mesh.corner(t, k)[a]);
    }
    out.append(2, '\0');  // attribute byte count
  }
  return out;
}

std::string asciiStl(const TriangleMesh& mesh, const std::string& name) {
  std::string solid = name;
  for (char& c : solid) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::string out = "solid " + solid + "\n";
  char line[160];
  const auto put = [&](const char* keyword, const Vec3& v) {
    std::snprintf(line, sizeof line, "%s %.9g %.9g %.9g\n", keyword, v.x(), v.y(), v.z());
    out += line;
  };
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    put("  facet normal", unitNormal(mesh, t));
    out += "    outer loop\n";
    for (int k = 0; k < 3; ++k) put("      vertex", mesh.corner(t, k));
    out += "    endloop\n  endfacet\n";
  }
  out += "endsolid " + solid + "\n";
  return out;
}

void writeStl(const TriangleMesh& mesh, const std::string& path, const std::string& header,
              StlFormat format) {
  writeFileAtomically(path, format == StlFormat::Binary ? binaryStl(mesh, header) : asciiStl(mesh, header));
}

}  // namespace clumplab::shapes
