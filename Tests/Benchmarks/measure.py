#!/usr/bin/env python3
"""Runs a command N times; prints the best and median wall time and the peak RSS of the child.

Peak RSS comes from getrusage(RUSAGE_CHILDREN) around each run (ru_maxrss, KiB on Linux), measured
in a fresh Python process per run so earlier children cannot mask a smaller peak.
Usage: measure.py LABEL RUNS -- COMMAND...   (stdout of the command goes to /dev/null)
"""
import json
import subprocess
import sys
import time

label, runs = sys.argv[1], int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
probe = (
    "import resource,subprocess,sys,time,json;"
    "t=time.perf_counter();"
    "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
    "w=time.perf_counter()-t;"
    "print(json.dumps([w,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,r.returncode]))"
)
walls, peaks, codes = [], [], []
for _ in range(runs):
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True)
    wall, peak, code = json.loads(out.stdout.strip().splitlines()[-1])
    walls.append(wall)
    peaks.append(peak)
    codes.append(code)
walls.sort()
print(json.dumps({
    "label": label,
    "best_s": round(walls[0], 3),
    "median_s": round(walls[len(walls) // 2], 3),
    "peak_rss_mib": round(max(peaks) / 1024, 1),
    "exit_codes": sorted(set(codes)),
}))
