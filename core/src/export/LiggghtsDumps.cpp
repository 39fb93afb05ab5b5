#include "LiggghtsDumps.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/base/Errors.hpp"
#include "io/TextFile.hpp"

namespace clumplab::exporting {

namespace {

class Lines {
 public:
  Lines(std::string path, const std::string& text) : path_(std::move(path)), in_(text) {}

  // The next line; InputError when the file ends before it.
  std::string next(const char* expected) {
    std::string line;
    if (!std::getline(in_, line))
      fail(line_ + 1, std::string("the file ends where ") + expected + " should be");
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
  bool more() { return in_.peek() != std::char_traits<char>::eof(); }
  int number() const { return line_; }
  [[noreturn]] void fail(int line, const std::string& problem) const {
    throw InputError(path_, "line " + std::to_string(line), problem);
  }
  // The line must start with `item` ("ITEM: TIMESTEP"); returns what follows it.
  std::string item(const std::string& item) {
    const std::string line = next(item.c_str());
    if (line != item && line.rfind(item + " ", 0) != 0)
      fail(line_, "expected \"" + item + "\", got \"" + line + "\"");
    return line.substr(item.size());
  }
  long long integerLine(const char* what) {
    const std::string line = next(what);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(line.c_str(), &end, 10);
    if (end == line.c_str() || errno != 0 || std::string(end).find_first_not_of(" \t") != std::string::npos ||
        v < 0)
      fail(line_, std::string("expected ") + what + ", got \"" + line + "\"");
    return v;
  }

 private:
  std::string path_;
  std::istringstream in_;
  int line_ = 0;
};

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

std::size_t LiggghtsDump::column(const std::string& name) const {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == name) return c;
  }
  std::string have;
  for (const std::string& c : columns) have += (have.empty() ? "" : " ") + c;
  throw InputError(file, "", "no column \"" + name + "\" (it has: " + have + ")");
}

LiggghtsDump readLiggghtsDump(const std::string& path) {
  const std::string text = readTextFile(path);
  Lines lines(path, text);
  LiggghtsDump dump;
  dump.file = path;
  lines.item("ITEM: TIMESTEP");
  dump.step = lines.integerLine("the time step number");
  const std::string countItem = lines.next("ITEM: NUMBER OF ATOMS or ENTRIES");
  if (countItem != "ITEM: NUMBER OF ATOMS" && countItem != "ITEM: NUMBER OF ENTRIES")
    lines.fail(lines.number(), "expected \"ITEM: NUMBER OF ATOMS\" or \"ITEM: NUMBER OF ENTRIES\", got \"" +
                                   countItem + "\"");
  const long long count = lines.integerLine("the number of rows");
  lines.item("ITEM: BOX BOUNDS");
  for (int axis = 0; axis < 3; ++axis) lines.next("a line of box bounds");
  const std::string columnsItem = lines.next("ITEM: ATOMS or ENTRIES");
  const bool atoms = columnsItem.rfind("ITEM: ATOMS", 0) == 0,
             entries = columnsItem.rfind("ITEM: ENTRIES", 0) == 0;
  if (!atoms && !entries)
    lines.fail(lines.number(),
               "expected \"ITEM: ATOMS ...\" or \"ITEM: ENTRIES ...\", got \"" + columnsItem + "\"");
  dump.columns = words(columnsItem.substr(atoms ? 11 : 13));
  if (dump.columns.empty()) lines.fail(lines.number(), "no column names");
  dump.rows.reserve(static_cast<std::size_t>(count));
  for (long long r = 0; r < count; ++r) {
    if (!lines.more()) {
      lines.fail(lines.number() + 1, "the dump ends after " + std::to_string(r) + " of the " +
                                         std::to_string(count) +
                                         " rows it declares (cut short while LIGGGHTS was writing it?)");
    }
    const std::string line = lines.next("a row");
    const std::vector<std::string> values = words(line);
    if (values.size() != dump.columns.size()) {
      lines.fail(lines.number(), std::to_string(values.size()) + " values, expected " +
                                     std::to_string(dump.columns.size()) + " (one per column)");
    }
    std::vector<double> row(values.size());
    for (std::size_t c = 0; c < values.size(); ++c) {
      char* end = nullptr;
      row[c] = std::strtod(values[c].c_str(), &end);
      if (end == values[c].c_str() || *end != '\0')
        lines.fail(lines.number(), "\"" + values[c] + "\" (" + dump.columns[c] + ") is not a number");
      if (!std::isfinite(row[c]))
        lines.fail(lines.number(), dump.columns[c] + " is " + values[c] + ": every value must be finite");
    }
    dump.rows.push_back(std::move(row));
    dump.lines.push_back(lines.number());
  }
  while (lines.more()) {
    if (words(lines.next("nothing")).empty()) continue;
    lines.fail(lines.number(), "more rows than the " + std::to_string(count) + " the dump declares");
  }
  return dump;
}

}  // namespace clumplab::exporting
