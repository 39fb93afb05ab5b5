#pragma once
// Reading LIGGGHTS dump files: `dump custom` (ITEM: ATOMS) and `dump local` (ITEM: ENTRIES), text,
// one snapshot per file. Errors name the file and the line. Private to core's export.
#include <string>
#include <vector>

namespace clumplab::exporting {

struct LiggghtsDump {
  std::string file;
  long long step = 0;                     // ITEM: TIMESTEP
  std::vector<std::string> columns;       // the names after ITEM: ATOMS or ITEM: ENTRIES
  std::vector<std::vector<double>> rows;  // one per atom or entry, every value finite
  std::vector<int> lines;                 // each row's line in the file (for messages)

  // The index of column `name`; InputError naming the file when it is absent.
  std::size_t column(const std::string& name) const;
};

// Throws InputError naming `path` and the line: a missing or misspelt ITEM, a count that is no
// count, a row of the wrong width or with a value that is not a finite number, fewer rows than
// the file declares (a dump cut short while LIGGGHTS was writing it).
LiggghtsDump readLiggghtsDump(const std::string& path);

}  // namespace clumplab::exporting
