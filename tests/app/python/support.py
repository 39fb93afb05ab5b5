"""What the Python module's tests share: where clumplab-cli and the repository are (ctest sets
CLUMPLAB_CLI and CLUMPLAB_SOURCE_DIR), and clumplab-cli run as a user's script runs it."""
import json
import os
import subprocess

CLI = os.environ["CLUMPLAB_CLI"]
SOURCE_DIR = os.environ["CLUMPLAB_SOURCE_DIR"]
SCENES = os.path.join(SOURCE_DIR, "resources", "scenes")
MESHES = os.path.join(SOURCE_DIR, "resources", "meshes")


def cli_json(*args):
    """clumplab-cli ARGS, which must succeed: the JSON object it prints."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise AssertionError(f"clumplab-cli {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return json.loads(done.stdout)


def cli_failure(*args):
    """clumplab-cli ARGS, which must fail with bad input (exit 2): the one line it prints."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    if done.returncode != 2:
        raise AssertionError(f"clumplab-cli {' '.join(args)} exited {done.returncode}, not 2: {done.stderr}")
    lines = [line for line in done.stderr.splitlines() if not line.startswith("note:")]
    if len(lines) != 1:
        raise AssertionError(f"expected one line on stderr, got {lines}")
    return lines[0]


def read_csv(path):
    """A CSV with a header as a list of dicts of floats."""
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
        return [dict(zip(header, map(float, line.split(",")))) for line in f if line.strip()]
