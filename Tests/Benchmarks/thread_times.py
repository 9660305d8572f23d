#!/usr/bin/env python3
"""CPU time of each thread of a command, to see which stage bounds a `--jobs` run: the run's own
thread (the engine, the rules, the tables) or the reader threads (decompression and decoding).

Usage: thread_times.py COMMAND...
Polls /proc/PID/task/*/stat every few milliseconds until the command exits and prints, per thread
(by name and id), the last user+system time seen, and the command's wall time. The final few
milliseconds of each thread may be missed.
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def snapshot(pid, seen):
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                text = stat.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        seen[tid] = (name, (int(fields[11]) + int(fields[12])) / TICK)


def main():
    started = time.perf_counter()
    process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
    seen = {}
    while process.poll() is None:
        snapshot(process.pid, seen)
        time.sleep(0.005)
    wall = time.perf_counter() - started
    print(f"wall {wall:.3f} s, exit {process.returncode}")
    for tid, (name, cpu) in sorted(seen.items(), key=lambda item: int(item[0])):
        print(f"  thread {tid:>8} {name:<16} {cpu:7.3f} s CPU")


if __name__ == "__main__":
    main()
