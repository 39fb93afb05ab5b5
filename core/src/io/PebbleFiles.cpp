#include "core/io/PebbleFiles.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "TextFile.hpp"
#include "core/base/Errors.hpp"

namespace clumplab {

namespace fs = std::filesystem;

namespace {

// The numbers of one line split on spaces, tabs, commas and semicolons; false at a non-number.
bool splitNumbers(const std::string& line, std::vector<double>& numbers, std::string& bad) {
  numbers.clear();
  std::string token;
  const auto flush = [&]() {
    if (token.empty()) return true;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || errno == ERANGE) {
      bad = token;
      return false;
    }
    numbers.push_back(v);
    token.clear();
    return true;
  };
  for (const char c : line) {
    if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r') {
      if (!flush()) return false;
    } else {
      token.push_back(c);
    }
  }
  return flush();
}

bool isComment(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return true;
  return line[first] == '#' || line[first] == '%' || line.compare(first, 2, "//") == 0;
}

// Every number of a small text file (comments allowed), with line numbers for messages.
std::vector<double> readNumbers(const std::string& path, std::size_t expected) {
  std::istringstream in(readTextFile(path));
  std::vector<double> all, row;
  std::string line, bad;
  for (int n = 1; std::getline(in, line); ++n) {
    if (isComment(line)) continue;
    if (!splitNumbers(line, row, bad))
      throw InputError(path, "line " + std::to_string(n), "\"" + bad + "\" is not a number");
    for (const double v : row) {
      if (!std::isfinite(v))
        throw InputError(path, "line " + std::to_string(n), "the numbers must be finite");
      all.push_back(v);
    }
  }
  if (all.size() != expected) {
    throw InputError(
        path, "", "expected " + std::to_string(expected) + " numbers, found " + std::to_string(all.size()));
  }
  return all;
}

Mat3 matrixFrom(const std::vector<double>& v) {
  Mat3 m;
  m << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
  return m;
}

}  // namespace

std::vector<Pebble> parsePebbleText(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::vector<Pebble> pebbles;
  std::vector<double> row;
  std::string line, bad;
  for (int n = 1; std::getline(in, line); ++n) {
    if (isComment(line)) continue;
    const std::string where = "line " + std::to_string(n);
    if (!splitNumbers(line, row, bad)) throw InputError(file, where, "\"" + bad + "\" is not a number");
    if (row.size() != 4) {
      throw InputError(file, where, "expected 4 numbers \"x y z r\", found " + std::to_string(row.size()));
    }
    for (const double v : row) {
      if (!std::isfinite(v)) throw InputError(file, where, "the numbers must be finite");
    }
    if (!(row[3] > 0.0)) throw InputError(file, where, "the radius must be positive");
    pebbles.push_back({Vec3(row[0], row[1], row[2]), row[3]});
  }
  if (pebbles.empty()) throw InputError(file, "", "no pebbles (expected lines \"x y z r\")");
  return pebbles;
}

std::vector<Pebble> readPebbleText(const std::string& path) {
  return parsePebbleText(readTextFile(path), path);
}

namespace {
std::string clumpTextIn(const std::string& folder) {
  for (const char* name : {"Clump/Clump.txt", "Clump.txt", "clump/clump.txt", "clump.txt"}) {
    const fs::path p = fs::path(folder) / name;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}
}  // namespace

bool isMercuryClumpFolder(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && !clumpTextIn(path).empty();
}

MercuryClump readMercuryClumpFolder(const std::string& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw InputError(folder, "", "is not a folder");
  const std::string clumpText = clumpTextIn(folder);
  if (clumpText.empty()) {
    throw InputError(folder, "",
                     "not a MercuryDPM clump folder: neither Clump/Clump.txt nor Clump.txt is in it");
  }
  MercuryClump c;
  c.pebbles = readPebbleText(clumpText);
  const fs::path inertia = fs::path(folder) / "Inertia";
  const fs::path mass = inertia / "Mass.txt", toi = inertia / "TOI.txt", pd = inertia / "PD.txt";
  if (fs::exists(mass, ec)) {
    c.mass = readNumbers(mass.string(), 1)[0];
    if (!(*c.mass > 0.0)) throw InputError(mass.string(), "", "the mass must be positive");
  }
  if (fs::exists(toi, ec)) {
    const Mat3 t = matrixFrom(readNumbers(toi.string(), 9));
    if (!t.isApprox(t.transpose(), 1e-6))
      throw InputError(toi.string(), "", "the tensor of inertia is not symmetric");
    c.inertiaTensor = 0.5 * (t + t.transpose());
  }
  if (fs::exists(pd, ec)) c.principalDirections = matrixFrom(readNumbers(pd.string(), 9));
  if (c.mass.has_value() != c.inertiaTensor.has_value()) {
    throw InputError(inertia.string(), "", "give both Mass.txt and TOI.txt, or neither");
  }
  return c;
}

MassProperties mercuryMassProperties(const MercuryClump& clump, double densityFactor) {
  if (!clump.mass || !clump.inertiaTensor)
    throw std::invalid_argument("the clump folder has no Inertia/Mass.txt and TOI.txt");
  MassProperties m;
  m.mass = densityFactor * *clump.mass;
  m.volume = *clump.mass;  // the mass at MClump's default density 1
  m.inertiaTensor = densityFactor * *clump.inertiaTensor;
  m.centerOfMass = Vec3::Zero();  // MClump centres the pebbles at the centre of mass
  return m;
}

}  // namespace clumplab
