#!/usr/bin/env python3
"""Checks tests/lint/clang_tidy_cached.py on a two-file project built with Ninja in a temporary folder:
a clean file is checked once and then passed from the cache; editing a header it includes makes it
checked again; a finding fails the run with the file named and writes no marker; CLUMPLAB_TIDY_CACHE=0
checks everything; the same project in another folder reuses the markers.

Usage: clang_tidy_cache_check.py CLANG_TIDY CXX
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

WRAPPER = Path(__file__).with_name("clang_tidy_cached.py")

CLEAN_HEADER = """#pragma once
#include <utility>
#include <vector>
inline std::vector<int> keep(std::vector<int> v) { return v; }
"""
# bugprone-use-after-move: the vector is used after it was moved from.
BROKEN_HEADER = """#pragma once
#include <utility>
#include <vector>
inline std::vector<int> keep(std::vector<int> v) { auto w = std::move(v); return v.empty() ? w : v; }
"""
SOURCE = """#include "shape.hpp"
int count() { return static_cast<int>(keep({1, 2, 3}).size()); }
"""


def expect(condition: bool, message: str) -> None:
    if not condition:
        print(f"FAIL: {message}")
        sys.exit(1)


def make_project(top: Path, compiler: str) -> None:
    """Writes the two-file project with its compile database and Ninja file into `top`."""
    (top / "src").mkdir(parents=True)
    (top / "build").mkdir()
    (top / "src" / "shape.hpp").write_text(CLEAN_HEADER)
    (top / "src" / "count.cpp").write_text(SOURCE)
    (top / ".clang-tidy").write_text("Checks: '-*,bugprone-use-after-move'\n"
                                     "WarningsAsErrors: '*'\nHeaderFilterRegex: '.*'\n")
    command = f"{compiler} -std=c++20 -I{top}/src -o count.o -c {top}/src/count.cpp"
    (top / "build" / "compile_commands.json").write_text(json.dumps(
        [{"directory": str(top / "build"), "command": command, "file": str(top / "src" / "count.cpp")}]))
    (top / "build" / "build.ninja").write_text(
        f"rule cxx\n  command = {compiler} -std=c++20 -I{top}/src -MD -MF $out.d -o $out -c $in\n"
        "  deps = gcc\n  depfile = $out.d\n"
        f"build count.o: cxx {top}/src/count.cpp\n")


def build(top: Path) -> None:
    subprocess.run(["ninja", "-C", str(top / "build")], check=True, capture_output=True)


def main() -> int:
    clang_tidy, compiler = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as folder:
        # Its own cache, on whatever the caller's environment says (a cold CI run sets CLUMPLAB_TIDY_CACHE=0).
        environment = dict(os.environ, CLUMPLAB_TIDY_CACHE_DIR=str(Path(folder) / "cache"),
                           CLUMPLAB_TIDY_CACHE="1")

        def lint(top: Path, **extra: str) -> subprocess.CompletedProcess:
            run = subprocess.run([sys.executable, str(WRAPPER), "--clang-tidy", clang_tidy,
                                  "--build-dir", str(top / "build"), "--source-dir", str(top),
                                  str(top / "src" / "count.cpp")],
                                 capture_output=True, text=True, env=dict(environment, **extra))
            print(run.stdout.strip())
            return run

        top = Path(folder) / "project"
        make_project(top, compiler)
        build(top)
        first = lint(top)
        expect(first.returncode == 0 and "1 checked, 0 passed before" in first.stdout,
               "a clean file is checked and passes")
        second = lint(top)
        expect(second.returncode == 0 and "0 checked, 1 passed before" in second.stdout,
               "the same inputs are passed from the cache")
        cold = lint(top, CLUMPLAB_TIDY_CACHE="0")
        expect(cold.returncode == 0 and "1 checked" in cold.stdout, "CLUMPLAB_TIDY_CACHE=0 checks again")

        (top / "src" / "shape.hpp").write_text(BROKEN_HEADER)
        build(top)
        broken = lint(top)
        expect(broken.returncode == 1 and "1 checked" in broken.stdout
               and "FAILED src/count.cpp" in broken.stdout
               and "use-after-move" in broken.stdout,
               "an edited header is checked again, and its finding fails the run naming the file")
        again = lint(top)
        expect(again.returncode == 1 and "1 checked" in again.stdout, "a failing file is never cached")

        (top / "src" / "shape.hpp").write_text(CLEAN_HEADER)
        build(top)
        restored = lint(top)
        expect(restored.returncode == 0 and "0 checked, 1 passed before" in restored.stdout,
               "the clean header's marker still applies")

        clone = Path(folder) / "another-clone" / "elsewhere"
        make_project(clone, compiler)
        build(clone)
        elsewhere = lint(clone)
        expect(elsewhere.returncode == 0 and "0 checked, 1 passed before" in elsewhere.stdout,
               "the same project in another folder passes from the cache")
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
