#!/usr/bin/env python3
"""Check every markdown link ](target) in README.md, CHANGELOG.md and docs/*.md: the file exists
in the repository and, for #anchors, a heading with that GitHub slug exists in the target file.
Usage: docs_links.py REPOSITORY_ROOT (ctest runs it as lint.docs_links)."""
import re, os, sys, glob
root = sys.argv[1] if len(sys.argv) > 1 else '.'
os.chdir(root)
files = ['README.md', 'CHANGELOG.md'] + sorted(glob.glob('docs/*.md'))
def slugs(path):
    out, seen = set(), {}
    in_code = False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        s = m.group(2).strip().lower()
        s = re.sub(r'[^\w\- ]', '', s)   # GitHub: drop punctuation, keep letters, digits, _, -, space
        s = s.replace(' ', '-')
        n = seen.get(s, 0); seen[s] = n + 1
        out.add(s if n == 0 else f'{s}-{n}')
    return out
bad = 0; count = 0
for f in files:
    text = open(f, encoding='utf-8').read()
    text_nocode = re.sub(r'```.*?```', '', text, flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)', text_nocode):
        target = m.group(1)
        if re.match(r'^[a-z]+://', target) or target.startswith('mailto:'):
            continue
        count += 1
        path, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f'{f}: missing file {target}'); bad += 1; continue
        if anchor:
            if not dest.endswith('.md') or anchor not in slugs(dest):
                print(f'{f}: missing anchor {target}'); bad += 1
print(f'{count} links checked in {len(files)} files, {bad} broken')
sys.exit(1 if bad else 0)
