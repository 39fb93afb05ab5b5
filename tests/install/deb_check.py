"""The Debian package as a user gets it: `cpack -G DEB` of the build tree, unpacked with
`dpkg-deb -x` into a fresh folder, and every installed program run from there, from another
folder, so that a path that only works in the build tree fails. Checks the package's metadata
(dependencies from dpkg-shlibdeps), its files (programs, Python module, scenes and meshes, desktop
entry, icons, MIME type), that no installed file names the build or source tree, the CLI's
--version, a scene run from the installed examples (one that finds a mesh beside it), the Python
module imported from the unpacked path, the app's example folder and its default scene in a
window (a display is needed: CI runs the tests under xvfb-run), and the desktop files with
desktop-file-validate, update-mime-database and gio.

usage: deb_check.py BUILD_DIR SOURCE_DIR WORK_DIR PYTHON"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD, SOURCE, WORK, PYTHON = (os.path.abspath(a) for a in sys.argv[1:5])


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def run(command, cwd=None, env=None, timeout=600):
    print("$ " + " ".join(command), flush=True)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        fail(f"{command[0]} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    packages = os.path.join(WORK, "packages")
    run(["cpack", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-G", "DEB", "-B", packages], cwd=WORK)
    debs = glob.glob(os.path.join(packages, "*.deb"))
    if len(debs) != 1:
        fail(f"expected one .deb in {packages}, found {debs}")
    deb = debs[0]
    print(f"package {os.path.basename(deb)}: {os.path.getsize(deb) / 1e6:.1f} MB")

    depends = run(["dpkg-deb", "-f", deb, "Depends"])
    for needed in ("libqt6widgets6", "libqt6opengl6", "libqt6charts6", "libassimp5", "python3-numpy",
                   "qt6-qpa-plugins", "libstdc++6"):
        if needed not in depends:
            fail(f"Depends lacks {needed}: {depends}")
    print("Depends: " + depends.strip())

    root = os.path.join(WORK, "root")
    run(["dpkg-deb", "-x", deb, root])
    usr = os.path.join(root, "usr")
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    site = os.path.join(usr, "lib", f"python{version}", "dist-packages")
    expected = ["bin/clumplab", "bin/clumplab-cli", f"lib/python{version}/dist-packages/clumplab/__init__.py",
                "share/applications/clumplab.desktop", "share/icons/hicolor/scalable/apps/clumplab.svg",
                "share/icons/hicolor/256x256/apps/clumplab.png", "share/mime/packages/clumplab.xml",
                "share/clumplab/scenes/default.json", "share/clumplab/scenes/pill-bottle.json",
                "share/clumplab/meshes/pill-bottle.stl"]
    for path in expected:
        if not os.path.isfile(os.path.join(usr, path)):
            fail(f"the package has no usr/{path}")
    if not glob.glob(os.path.join(site, "clumplab", "_clumplab*.so")):
        fail("the package has no Python extension _clumplab")

    # Nothing installed may point into the trees it was built from.
    for folder, _, files in os.walk(root):
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            for tree in (BUILD, SOURCE):
                if tree.encode() in data:
                    fail(f"{os.path.relpath(os.path.join(folder, name), root)} names {tree}")
    print("no installed file names the build or the source tree")

    # Run everything from a folder of its own, with a PATH and PYTHONPATH that hold only the package.
    elsewhere = tempfile.mkdtemp(prefix="clumplab-user-")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CLUMPLAB_EXAMPLES")}
    env.update(PATH=os.path.join(usr, "bin") + ":/usr/bin:/bin", HOME=elsewhere,
               XDG_CONFIG_HOME=os.path.join(elsewhere, "config"), XDG_DATA_HOME=os.path.join(elsewhere, "data"),
               XDG_CACHE_HOME=os.path.join(elsewhere, "cache"), XDG_RUNTIME_DIR=elsewhere)

    out = run(["clumplab-cli", "--version"], cwd=elsewhere, env=env)
    if not re.fullmatch(r"clumplab-cli: ClumpLab \d+\.\d+\.\d+ \(revision [\w.+-]+\)\n", out):
        fail(f"clumplab-cli --version printed {out!r}")
    scenes = os.path.join(usr, "share", "clumplab", "scenes")
    summary = json.loads(run(["clumplab-cli", "run", os.path.join(scenes, "pill-bottle.json"), "--steps", "20"],
                             cwd=elsewhere, env=env))
    if summary["steps"] != 20:
        fail(f"the installed pill-bottle scene ran {summary['steps']} steps")
    print(f"installed clumplab-cli ran the installed pill-bottle scene (mesh walls from ../meshes): {summary['steps']} steps")

    script = ("import clumplab, sys\n"
              f"assert clumplab.__file__.startswith({site!r}), clumplab.__file__\n"
              f"world = clumplab.load({os.path.join(scenes, 'default.json')!r})\n"
              "print(clumplab.__version__, clumplab.__revision__, world.step(20), len(world))\n")
    out = run([PYTHON, "-c", script], cwd=elsewhere, env=dict(env, PYTHONPATH=site))
    print("installed Python module: " + out.strip())

    out = run(["clumplab", "--examples"], cwd=elsewhere, env=env)
    if out.splitlines()[0] != os.path.realpath(scenes) and out.splitlines()[0] != scenes:
        fail(f"the installed app looks for its examples in {out.splitlines()[0]}, not {scenes}")
    if "default.json" not in out:
        fail("the installed app lists no default.json among its examples")
    print(f"installed app finds its examples in {out.splitlines()[0]}")
    if not os.environ.get("DISPLAY"):
        fail("no display for the app's window: run the tests under xvfb-run (README's second command does)")
    shot = os.path.join(elsewhere, "default.png")
    run(["clumplab", "--run-for", "0.05", "--screenshot-window", shot, "--quit"], cwd=elsewhere, env=env)
    with open(shot, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("the installed app's screenshot is no PNG")
    print("installed app opened its default scene and saved a screenshot")

    run(["desktop-file-validate", os.path.join(usr, "share", "applications", "clumplab.desktop")])
    mime = os.path.join(elsewhere, "mime")
    os.makedirs(os.path.join(mime, "packages"))
    shutil.copy(os.path.join(usr, "share", "mime", "packages", "clumplab.xml"), os.path.join(mime, "packages"))
    run(["update-mime-database", mime])
    plain = os.path.join(elsewhere, "plain.json")
    with open(plain, "w", encoding="utf-8") as f:
        f.write('{"a": 1}\n')
    gio_env = dict(env, XDG_DATA_HOME=elsewhere)
    for path, wanted in ((os.path.join(scenes, "default.json"), "application/x-clumplab-scene"),
                         (plain, "application/json")):
        out = run(["gio", "info", "-a", "standard::content-type", path], env=gio_env)
        if wanted not in out:
            fail(f"{path} is not {wanted} with the package's MIME type: {out}")
    print("desktop entry valid; a scene file is application/x-clumplab-scene, other JSON stays application/json")
    shutil.rmtree(elsewhere, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
