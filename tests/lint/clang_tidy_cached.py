#!/usr/bin/env python3
"""Runs clang-tidy over source files, skipping those it has already passed with the very same inputs.

clang-tidy re-parses every translation unit, Eigen and Qt included, and took most of a cold CI run's
lint time (docs/testing.md, "Test time"). Its verdict on a file depends only on the tool, the .clang-tidy
configuration, the compile command and the bytes of the file and of every header it includes. This
script hashes exactly those (the headers are the ones the compiler recorded in the Ninja build's
dependency log, `ninja -t deps`) into a key per file. A file whose key passed before is not checked
again; every other file is checked, one clang-tidy process per file.

Keys that passed are found in two places:
- the local cache, an empty marker file per key, as ccache does for objects: in
  $CLUMPLAB_TIDY_CACHE_DIR, else $XDG_CACHE_HOME/clumplab/clang-tidy, else ~/.cache/clumplab/clang-tidy;
- a committed baseline (--baseline FILE, one "KEY PATH" line per file), so that a fresh clone on a
  machine with the same packages checks only the files a change touched, or whose headers it touched:
  keys are content hashes, so a listed key can only match the very inputs that passed.
  CLUMPLAB_TIDY_BASELINE=write rewrites the baseline with the keys of every file when all pass.
CLUMPLAB_TIDY_CACHE=0 uses neither and checks every file (a cold run). Paths under the source and
build folders are hashed relative to them, so clones in different folders share keys. A file with no
valid dependency record is always checked.

Headers outside the source and build folders (Qt, Eigen, the C++ library, the kernel's) enter a key by
the package that installed them and its upstream major.minor version (`dpkg-query`), not by their bytes:
a distribution's point release rewrites such headers (Debian 12's linux-libc-dev moves with every kernel
update) without changing what clang-tidy says of the project's code, and keyed by bytes it made every
fresh clone on an updated machine lint all files again (26 CPU-minutes). A header no package owns (or
without dpkg) enters by its bytes. The baseline also records the machine it was written on: a hash of
the clang-tidy version and of those headers' identities. With
CLUMPLAB_TIDY_STALE=fail (.ci/test-all sets it, so README's test command costs the same whether or not
a commit refreshed the baseline), a file missing from the baseline of the same machine is not checked:
the test fails at once, naming the files and the command that refreshes the baseline. A file that reads
what the build generates for each commit (Version.cpp's revision) is checked as usual. On another
machine (other packages, another clang-tidy) the baseline cannot speak for the files, and they are
checked as without it.

In a unity build (CMAKE_UNITY_BUILD: Unity/unity_N_cxx.cxx files #include the sources) a source has
no command of its own: it is given its unity file's command with the source in its place, and the
unity object's dependencies (the batch's sources and their headers) in its key, so that editing one
file of a batch checks the batch again. clang-tidy reads such commands from a copy of the compile
database.
"""

import argparse
import hashlib
import json
import os
import re
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

    def __call__(self, path: str, relative=None) -> str:
        """The hash of the file's bytes; of its text with relative() applied when given (a unity file
        #includes its sources by absolute path)."""
        if path not in self._known:
            try:
                data = Path(path).read_bytes()
                if relative is not None:
                    data = relative(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
                self._known[path] = sha256_bytes(data)
            except OSError:
                self._known[path] = "missing"
        return self._known[path]


def upstream_major_minor(version: str) -> str:
    """"1:14.0.6-12" -> "14.0", "6.4.2+dfsg-10" -> "6.4", "5.2.5~ds0-1+b1" -> "5.2": a Debian version
    without its epoch and revision, cut to two numbers."""
    upstream = version.split(":", 1)[-1].rsplit("-", 1)[0]
    return ".".join(re.split(r"[.+~]", upstream)[:2])


def package_identities(paths: list[str]) -> dict[str, str]:
    """Maps each path a Debian package installed to "package major.minor" (upstream version); paths no
    package owns, or all when dpkg-query is missing, are left out."""
    if not paths:
        return {}
    try:
        owners = subprocess.run(["dpkg-query", "-S", *paths], capture_output=True, text=True, check=False)
    except OSError:
        return {}
    owner_of: dict[str, str] = {}
    for line in owners.stdout.splitlines():
        packages, sep, path = line.partition(": ")
        if sep and "," not in packages and not packages.startswith("diversion"):
            owner_of[path.strip()] = packages.strip()
    if not owner_of:
        return {}
    # ${binary:Package} names a package as dpkg-query -S does: with its architecture where several can
    # be installed side by side ("libc6-dev:amd64"), bare otherwise ("libeigen3-dev").
    versions = subprocess.run(["dpkg-query", "-W", "-f", "${binary:Package} ${Version}\\n",
                               *sorted(set(owner_of.values()))], capture_output=True, text=True, check=False)
    version_of = dict(line.split(" ", 1) for line in versions.stdout.splitlines() if " " in line)
    return {path: f"{package.split(':')[0]} {upstream_major_minor(version_of[package])}"
            for path, package in owner_of.items() if package in version_of}


def cache_folder() -> Path:
    if os.environ.get("CLUMPLAB_TIDY_CACHE_DIR"):
        return Path(os.environ["CLUMPLAB_TIDY_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "clumplab" / "clang-tidy"


def words_of(entry: dict) -> list[str]:
    return shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])


def path_of(entry: dict) -> str:
    file = entry["file"]
    return os.path.normpath(file if os.path.isabs(file) else os.path.join(entry["directory"], file))


def object_of(entry: dict) -> str | None:
    if "output" in entry:
        return entry["output"]
    words = words_of(entry)
    for i, word in enumerate(words[:-1]):
        if word == "-o":
            return words[i + 1]
    return None


UNITY_INCLUDE = re.compile(r'^#include "(.+)"$', re.MULTILINE)
UNITY_FILE = re.compile(r"/Unity/unity_[^/]*$")


def compile_entries(build_dir: Path) -> dict[str, dict]:
    """The compile database by source path; a source built in a unity file gets that file's command
    with the source in its place (and the unity object as its output)."""
    entries: dict[str, dict] = {}
    for entry in json.loads((build_dir / "compile_commands.json").read_text()):
        unity = path_of(entry)
        entries[unity] = entry
        if not UNITY_FILE.search(unity):
            continue
        output = object_of(entry)
        for source in UNITY_INCLUDE.findall(Path(unity).read_text()):
            words = [source if w == entry["file"] or w == unity else w for w in words_of(entry)]
            entries[os.path.normpath(source)] = {"directory": entry["directory"], "file": source,
                                                 "arguments": words, "output": output}
    return entries


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


def tidy_database(entries: dict[str, dict], folder: Path) -> Path:
    """Writes the compile database clang-tidy reads into `folder`: every entry, unity sources with
    their own."""
    rewritten = [{"directory": e["directory"], "file": e["file"], "arguments": words_of(e)}
                 for e in entries.values()]
    (folder / "compile_commands.json").write_text(json.dumps(rewritten))
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-tidy", required=True, help="the clang-tidy executable")
    parser.add_argument("--build-dir", required=True, help="folder with compile_commands.json")
    parser.add_argument("--source-dir", required=True, help="the project's top folder")
    parser.add_argument("--baseline", help="the committed keys of files that passed (KEY PATH lines)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    build_dir = Path(args.build_dir).resolve()
    source_dir = Path(args.source_dir).resolve()
    entries = compile_entries(build_dir)
    files = [os.path.normpath(os.path.abspath(f)) for f in args.files]
    objects = {f: object_of(entries[f]) for f in files if f in entries}
    dependencies = recorded_dependencies(build_dir, sorted({o for o in objects.values() if o}))

    def relative(text: str) -> str:
        # Build folder first: it lies inside the source folder.
        return text.replace(str(build_dir), "<build>").replace(str(source_dir), "<source>")

    version = subprocess.run([args.clang_tidy, "--version"], capture_output=True, text=True,
                             check=True).stdout
    hashes = FileHashes()
    use_cache = os.environ.get("CLUMPLAB_TIDY_CACHE", "1") != "0"
    cache = cache_folder()

    # The headers read from outside the source and build folders.
    outside = {d for o in set(objects.values()) if o for d in dependencies.get(o, []) if relative(d) == d}
    packaged = package_identities(sorted(outside))

    def identity(path: str) -> str:
        """What stands for a file's content in a key: its package for a system header, else its bytes."""
        if path in packaged:
            return packaged[path]
        return hashes(path, relative if UNITY_FILE.search(path) else None)

    # Files that read a file the build generates afresh for each commit (the revision Version.cpp
    # prints; CMake's unity files are not such): no committed baseline can list them.
    generated: set[str] = set()

    def key_of(file: str) -> str | None:
        entry = entries.get(file)
        deps = dependencies.get(objects.get(file) or "")
        if entry is None or deps is None:
            return None
        if any(relative(d).startswith("<build>") and not UNITY_FILE.search(d) for d in deps):
            generated.add(file)
        parts = [version, relative(shlex.join(words_of(entry)))]
        # clang-tidy reads the .clang-tidy files in the file's folder and above it.
        configs = [str(d / ".clang-tidy") for d in Path(file).parents
                   if d == source_dir or source_dir in d.parents]
        parts += [relative(c) + ":" + hashes(c) for c in configs]
        # Sorted after relative(): the order must not depend on where the clone lies beside /usr.
        parts += sorted(relative(d) + ":" + identity(d) for d in set(deps + [file]))
        return sha256_bytes("\n".join(parts).encode())

    scratch = tempfile.TemporaryDirectory(prefix="clumplab-tidy-")
    database: list[Path] = []  # written at the first file checked
    baseline_path = Path(args.baseline) if args.baseline else None
    baseline, baseline_machine = read_baseline(baseline_path) if baseline_path and use_cache else (set(), None)
    keys: dict[str, str | None] = {file: key_of(file) if use_cache or baseline_path else None for file in files}
    machine = sha256_bytes("\n".join([version] + sorted(f"{d}:{identity(d)}" for d in outside)).encode())
    stale = [f for f in files if keys[f] is not None and keys[f] not in baseline and f not in generated]
    if (os.environ.get("CLUMPLAB_TIDY_STALE") == "fail" and os.environ.get("CLUMPLAB_TIDY_BASELINE") != "write"
            and stale and baseline_machine == machine):
        print(f"clang-tidy: the committed baseline {os.path.relpath(baseline_path, source_dir)} was written on "
              f"this machine's packages but not for these {len(stale)} files as they are now (the commit "
              f"that changed them did not refresh it); not checked. Refresh it with "
              f"CLUMPLAB_TIDY_BASELINE=write ctest --preset release -R 'lint[.]clang_tidy' and commit it:")
        for file in stale:
            print(f"clang-tidy: STALE {os.path.relpath(file, source_dir)}")
        return 1
    reused, from_baseline, checked, failed = 0, 0, 0, []
    for file in files:
        key = keys[file]
        if key is not None and key in baseline:
            from_baseline += 1
            continue
        marker = cache / key[:2] / key if key and use_cache else None
        if marker is not None and marker.exists():
            reused += 1
            continue
        checked += 1
        if not database:
            database.append(tidy_database(entries, Path(scratch.name)))
        run = subprocess.run([args.clang_tidy, "-p", str(database[0]), "--quiet", file],
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

    where = f"cache {cache}" if use_cache else "cache and baseline off (CLUMPLAB_TIDY_CACHE=0)"
    print(f"clang-tidy: {len(files)} files: {checked} checked, {reused} passed before with the same "
          f"inputs ({where}), {from_baseline} in the committed baseline; {len(failed)} failed")
    for file in failed:
        print(f"clang-tidy: FAILED {os.path.relpath(file, source_dir)}")
    if baseline_path is not None:
        missing = [f for f in files if (keys[f] is None or keys[f] not in baseline) and f not in generated]
        if os.environ.get("CLUMPLAB_TIDY_BASELINE") == "write":
            if failed or any(keys[f] is None for f in files):
                print(f"clang-tidy: baseline {baseline_path} left as it was (a file failed or has no key)")
            else:
                write_baseline(baseline_path, {os.path.relpath(f, source_dir): keys[f] for f in files}, machine)
                print(f"clang-tidy: baseline {baseline_path} written ({len(files)} files)")
        elif missing and use_cache:
            print(f"clang-tidy: {len(missing)} files not in the committed baseline (a fresh clone checks "
                  f"them); refresh it with CLUMPLAB_TIDY_BASELINE=write ctest -R 'lint[.]clang_tidy'")
    return 1 if failed else 0


MACHINE_LINE = "# machine "


def read_baseline(path: Path) -> tuple[set[str], str | None]:
    """The keys a committed baseline lists ("KEY PATH" lines; # starts a comment) and the machine it
    was written on ("# machine HASH"); none if absent."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return set(), None
    machine = next((line[len(MACHINE_LINE):].strip() for line in lines if line.startswith(MACHINE_LINE)), None)
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}, machine


def write_baseline(path: Path, keys: dict[str, str], machine: str) -> None:
    text = ("# clang-tidy passed these files with exactly these inputs (tests/lint/clang_tidy_cached.py).\n"
            "# Rewritten by CLUMPLAB_TIDY_BASELINE=write ctest -R 'lint[.]clang_tidy'.\n"
            f"{MACHINE_LINE}{machine}\n")
    text += "".join(f"{key} {name}\n" for name, key in sorted(keys.items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent)
    with os.fdopen(handle, "w") as out:
        out.write(text)
    os.replace(temporary, path)


if __name__ == "__main__":
    sys.exit(main())
