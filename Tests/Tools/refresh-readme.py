#!/usr/bin/env python3
"""Re-runs the commands of README.md in order and writes the real output of ```console blocks back in.

Usage (from the package root, after `swift build`): python3 Tests/Tools/refresh-readme.py
ReadmeCommandTests then checks the README against the same runs, so review the diff and commit it.
Commands run in a scratch directory where SampleLogs links to the project's, as in the test.
"""
import os
import re
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.join(root, ".build", "debug", "hig-audit")
scratch = tempfile.mkdtemp(prefix="hig-audit-readme-")
os.symlink(os.path.join(root, "SampleLogs"), os.path.join(scratch, "SampleLogs"))
env = dict(os.environ, NO_COLOR="1")

lines = open(os.path.join(root, "README.md"), encoding="utf-8").read().split("\n")
out, block, i = [], None, 0
while i < len(lines):
    line = lines[i]
    if line.startswith("```"):
        block = line[3:] if block is None else None
        out.append(line)
        i += 1
        continue
    if block == "sh" and line and not line.startswith("#"):
        # Commands whose output the README does not show still run, in order: later ones may need
        # what they wrote.
        out.append(line)
        command = re.sub(r"\s*# exit \d+\s*$", "", line)
        if command != "swift test":
            subprocess.run(["sh", "-c", command.replace("swift run hig-audit", binary)], cwd=scratch, env=env,
                           capture_output=True)
        i += 1
        continue
    if block == "console" and line.startswith("$ "):
        out.append(line)
        command = re.sub(r"\s*# exit \d+\s*$", "", line[2:])
        command = command.replace("swift run hig-audit", binary)
        result = subprocess.run(["sh", "-c", command], cwd=scratch, env=env, capture_output=True, text=True)
        out.extend(result.stdout.rstrip("\n").split("\n") if result.stdout else [])
        i += 1
        while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
            i += 1
        continue
    out.append(line)
    i += 1
open(os.path.join(root, "README.md"), "w", encoding="utf-8").write("\n".join(out))
print("README.md refreshed", file=sys.stderr)
