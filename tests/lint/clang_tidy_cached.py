#!/usr/bin/env python3
"""Runs clang-tidy over source files, skipping those it has already passed with the very same inputs.

clang-tidy re-parses every translation unit, Eigen and Qt included, and takes most of a CI run's
lint time (README "Continuous integration"). Its verdict on a file depends only on the tool, the
.clang-tidy configuration, the compile command and the bytes of the file and of every header it
includes. This script hashes exactly those (the headers are the ones the compiler recorded in the
Ninja build's dependency log, `ninja -t deps`) and keeps an empty marker file per passing key, as
ccache does for objects. A file whose key has a marker is not checked again; every other file is
checked, one clang-tidy process per file, and a marker is written only when that file passes.

The cache lives in $CLUMPLAB_TIDY_CACHE_DIR, else $XDG_CACHE_HOME/clumplab/clang-tidy, else
~/.cache/clumplab/clang-tidy. CLUMPLAB_TIDY_CACHE=0 checks every file (a cold run).
Paths under the source and build folders are hashed relative to them, so clones in different
folders share the cache. A file with no valid dependency record is always checked.
"""

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileHashes:
    """Content hashes of files, each file read once per run."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if path not in self._known:
            try:
                self._known[path] = sha256_bytes(Path(path).read_bytes())
            except OSError:
                self._known[path] = "missing"
        return self._known[path]


def cache_folder() -> Path:
    if os.environ.get("CLUMPLAB_TIDY_CACHE_DIR"):
        return Path(os.environ["CLUMPLAB_TIDY_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "clumplab" / "clang-tidy"


def object_of(entry: dict) -> str | None:
    if "output" in entry:
        return entry["output"]
    words = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    for i, word in enumerate(words[:-1]):
        if word == "-o":
            return words[i + 1]
    return None


def recorded_dependencies(build_dir: Path, objects: list[str]) -> dict[str, list[str]]:
    """Maps each object to the absolute paths of the files its compile read, from `ninja -t deps`;
    objects without a valid record are left out."""
    if not objects or not (build_dir / ".ninja_deps").exists():
        return {}
    run = subprocess.run(["ninja", "-C", str(build_dir), "-t", "deps", *objects],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return {}
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in run.stdout.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            name, _, rest = line.partition(": #deps")
            current = name if "(VALID)" in rest else None
            if current is not None:
                found[current] = []
        elif current is not None:
            found[current].append(os.path.normpath(build_dir / line.strip()))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-tidy", required=True, help="the clang-tidy executable")
    parser.add_argument("--build-dir", required=True, help="folder with compile_commands.json")
    parser.add_argument("--source-dir", required=True, help="the project's top folder")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    build_dir = Path(args.build_dir).resolve()
    source_dir = Path(args.source_dir).resolve()
    entries = {os.path.normpath(e["file"] if os.path.isabs(e["file"])
                                else os.path.join(e["directory"], e["file"])): e
               for e in json.loads((build_dir / "compile_commands.json").read_text())}
    files = [os.path.normpath(os.path.abspath(f)) for f in args.files]
    objects = {f: object_of(entries[f]) for f in files if f in entries}
    dependencies = recorded_dependencies(build_dir, [o for o in objects.values() if o])

    def relative(text: str) -> str:
        # Build folder first: it lies inside the source folder.
        return text.replace(str(build_dir), "<build>").replace(str(source_dir), "<source>")

    version = subprocess.run([args.clang_tidy, "--version"], capture_output=True, text=True,
                             check=True).stdout
    hashes = FileHashes()
    use_cache = os.environ.get("CLUMPLAB_TIDY_CACHE", "1") != "0"
    cache = cache_folder()

    def key_of(file: str) -> str | None:
        entry = entries.get(file)
        deps = dependencies.get(objects.get(file) or "")
        if entry is None or deps is None:
            return None
        parts = [version, relative(entry.get("command") or " ".join(entry["arguments"]))]
        # clang-tidy reads the .clang-tidy files in the file's folder and above it.
        configs = [str(d / ".clang-tidy") for d in Path(file).parents
                   if d == source_dir or source_dir in d.parents]
        parts += [relative(c) + ":" + hashes(c) for c in configs]
        # Sorted after relative(): the order must not depend on where the clone lies beside /usr.
        parts += sorted(relative(d) + ":" + hashes(d) for d in set(deps + [file]))
        return sha256_bytes("\n".join(parts).encode())

    reused, checked, failed = 0, 0, []
    for file in files:
        key = key_of(file) if use_cache else None
        marker = cache / key[:2] / key if key else None
        if marker is not None and marker.exists():
            reused += 1
            continue
        checked += 1
        run = subprocess.run([args.clang_tidy, "-p", str(build_dir), "--quiet", file],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            failed.append(file)
            sys.stdout.write(run.stdout)
            sys.stderr.write(run.stderr)
        elif marker is not None:
            marker.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=marker.parent)
            os.close(handle)
            os.replace(temporary, marker)

    where = f"cache {cache}" if use_cache else "cache off (CLUMPLAB_TIDY_CACHE=0)"
    print(f"clang-tidy: {len(files)} files: {checked} checked, {reused} passed before with the same "
          f"inputs ({where}); {len(failed)} failed")
    for file in failed:
        print(f"clang-tidy: FAILED {os.path.relpath(file, source_dir)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
