#!/usr/bin/env python3
"""core's folders are layers: a file may include headers of its own folder and of folders below it.

Usage: core_layers.py SOURCE_DIR

The order below is the one docs/architecture.md describes ("core's folders"). A file of
core/include/core/<F>/ or core/src/<F>/ belongs to folder F; an include "core/<G>/..." (or "<G>/..."
relative to core/src) names folder G; any other quoted include is of the file's own folder. The check
fails on every include of a higher folder, naming the file, the line and both folders, and on a
folder that is not in the order (a new folder must be given its place). Before the repository it
checks itself on a small tree with one include pointing up, which it must find.
"""
import os
import re
import sys
import tempfile

# Lowest first.
ORDER = ["base", "clump", "forces", "walls", "collision", "model", "energy", "integrate", "cim", "step", "world",
         "scene", "io", "export", "studies"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(relative_path):
    parts = relative_path.split("/")
    if relative_path.startswith("core/include/core/") and len(parts) > 4:
        return parts[3]
    if relative_path.startswith("core/src/") and len(parts) > 3:
        return parts[2]
    return None


def included_folder(include, own, folders):
    parts = include.split("/")
    if parts[0] == "core" and len(parts) > 2:
        return parts[1]
    if len(parts) > 1 and parts[0] in folders:
        return parts[0]
    return own


def problems(source_dir, order):
    rank = {name: i for i, name in enumerate(order)}
    found = []
    files = []
    for top in ("core/include/core", "core/src"):
        for root, _, names in os.walk(os.path.join(source_dir, top)):
            for name in sorted(names):
                if name.endswith((".hpp", ".cpp", ".h")):
                    files.append(os.path.relpath(os.path.join(root, name), source_dir))
    folders = {folder_of(f) for f in files} - {None}
    for name in sorted(folders - set(rank)):
        found.append(f"core/src/{name}/ or core/include/core/{name}/: folder '{name}' has no place in the "
                     f"layer order ({' < '.join(order)}); add it to tests/lint/core_layers.py and "
                     f"docs/architecture.md")
    for f in sorted(files):
        own = folder_of(f)
        if own not in rank:
            continue
        with open(os.path.join(source_dir, f), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = included_folder(m.group(1), own, folders)
                if target in rank and rank[target] > rank[own]:
                    found.append(f"{f}:{number}: {own}/ includes \"{m.group(1)}\" of {target}/, a folder above "
                                 f"it ({' < '.join(order)})")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as tree:
        def write(path, text):
            full = os.path.join(tree, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        write("core/include/core/low/A.hpp", "#pragma once\n")
        write("core/include/core/high/B.hpp", '#pragma once\n#include "core/low/A.hpp"\n')
        write("core/src/low/A.cpp", '#include "core/low/A.hpp"\n#include "Local.hpp"\n#include "high/C.hpp"\n')
        write("core/src/high/C.hpp", "#pragma once\n")
        found = problems(tree, ["low", "high"])
        expected = ["core/src/low/A.cpp:3: low/ includes \"high/C.hpp\" of high/, a folder above it (low < high)"]
        if found != expected:
            return f"self-test: expected {expected}, found {found}"
        if not problems(tree, ["low"]):
            return "self-test: a folder missing from the order went unnoticed"
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    failure = self_test()
    if failure:
        print(failure)
        return 1
    found = problems(sys.argv[1], ORDER)
    for line in found:
        print(line)
    if found:
        print(f"core_layers: {len(found)} problem(s)")
        return 1
    print(f"core_layers: no include points up ({' < '.join(ORDER)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
