#!/usr/bin/env python3
"""Times several commands in alternation; prints, per command, best and median wall time, best CPU time
and the peak RSS of the child.

Usage: measure.py ROUNDS LABEL -- COMMAND... [--- LABEL -- COMMAND...]...
Each round runs every command once, in the order given (stdout to /dev/null), so a machine that slows
down or speeds up for a while (shared 2-core machines here drift by ±15%) weighs on every command alike
instead of on whichever ran in that stretch; ratios between commands of one call are therefore what to
compare. CPU time is user plus system time of the child and its children: unlike wall time it does not
count waiting for the CPU, but it counts every thread, so `zstd -dc`'s writer thread adds to it.
Peak RSS comes from getrusage(RUSAGE_CHILDREN) (ru_maxrss, KiB on Linux), measured in a fresh Python
process per run so earlier children cannot mask a smaller peak. Prints a JSON list, one object per
command, in the order given.
"""
import json
import subprocess
import sys

PROBE = (
    "import resource,subprocess,sys,time,json;"
    "t=time.perf_counter();"
    "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
    "w=time.perf_counter()-t;"
    "u=resource.getrusage(resource.RUSAGE_CHILDREN);"
    "print(json.dumps([w,u.ru_utime+u.ru_stime,u.ru_maxrss,r.returncode]))"
)


def parse(arguments):
    """[(label, command)] from `LABEL -- COMMAND... --- LABEL -- COMMAND...`."""
    commands, current = [], []
    for argument in arguments + ["---"]:
        if argument != "---":
            current.append(argument)
            continue
        if len(current) < 3 or current[1] != "--":
            sys.exit(f"measure.py: expected LABEL -- COMMAND..., got {current!r}")
        commands.append((current[0], current[2:]))
        current = []
    return commands


def main():
    rounds = int(sys.argv[1])
    commands = parse(sys.argv[2:])
    samples = [{"walls": [], "cpus": [], "peaks": [], "codes": []} for _ in commands]
    for _ in range(rounds):
        for (label, command), sample in zip(commands, samples):
            out = subprocess.run([sys.executable, "-c", PROBE, *command], capture_output=True, text=True, check=True)
            wall, cpu, peak, code = json.loads(out.stdout.strip().splitlines()[-1])
            sample["walls"].append(wall)
            sample["cpus"].append(cpu)
            sample["peaks"].append(peak)
            sample["codes"].append(code)
    results = []
    for (label, _), sample in zip(commands, samples):
        walls = sorted(sample["walls"])
        results.append({
            "label": label,
            "best_s": round(walls[0], 3),
            "median_s": round(walls[len(walls) // 2], 3),
            "best_cpu_s": round(min(sample["cpus"]), 3),
            "peak_rss_mib": round(max(sample["peaks"]) / 1024, 1),
            "exit_codes": sorted(set(sample["codes"])),
        })
    print(json.dumps(results))


if __name__ == "__main__":
    main()
