"""Runs every ```python block of a Markdown file as a script, in order, each in a fresh process in
WORK (which holds a link to the repository's resources/, as a user's checkout would), and checks
that every PNG a block saves with savefig("NAME.png") exists and is a PNG. Exit 0 if all ran.

usage: docs_examples.py FILE.md WORK"""
import os
import re
import shutil
import subprocess
import sys

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def blocks(markdown):
    return re.findall(r"^```python\n(.*?)^```", markdown, flags=re.S | re.M)


def main():
    markdown_path, work = sys.argv[1], sys.argv[2]
    with open(markdown_path, encoding="utf-8") as f:
        found = blocks(f.read())
    if not found:
        sys.exit(f"{markdown_path}: no ```python block")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    repository = os.path.dirname(os.path.dirname(os.path.abspath(markdown_path)))
    os.symlink(os.path.join(repository, "resources"), os.path.join(work, "resources"))
    for number, code in enumerate(found, 1):
        script = os.path.join(work, f"example{number}.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(code)
        print(f"--- {markdown_path}, example {number}", flush=True)
        done = subprocess.run([sys.executable, script], cwd=work, check=False)
        if done.returncode != 0:
            sys.exit(f"{markdown_path}: example {number} exited {done.returncode}")
        for png in re.findall(r"savefig\(\s*[\"']([^\"']+\.png)[\"']", code):
            with open(os.path.join(work, png), "rb") as f:
                if f.read(8) != PNG_SIGNATURE:
                    sys.exit(f"{markdown_path}: example {number}: {png} is not a PNG")
            print(f"wrote {png}")
    print(f"{len(found)} examples ran")


if __name__ == "__main__":
    main()
