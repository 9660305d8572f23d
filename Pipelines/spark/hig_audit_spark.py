#!/usr/bin/env python3
"""hig-audit as a Spark job: the audit of one machine, split by device over a cluster, with the same tables.

    spark-submit Pipelines/spark/hig_audit_spark.py --hig-audit /opt/hig-audit/bin/hig-audit \\
        --store results.sqlite --shards 64 /shared/uploads/2026-11-20
    python3 Pipelines/spark/hig_audit_spark.py --master 'local[2]' --hig-audit .build/release/hig-audit \\
        --store results.sqlite SampleLogs/night-2026-11-20

Stages (Pipelines/spark/README.md says what each costs):
1. list: the driver asks `hig-audit shard-plan --list` for the input files in the order one run reads them.
2. plan: one Spark task per batch of files runs `hig-audit shard-plan FILE...`: the sessions with events in
   each file and the device of each one's first event there.
3. assign: a session belongs to the shard of the device of its first event read (SPEC v2 section 2 "Device
   clocks"): FNV-1a 64 of the device's UTF-8 bytes mod N, taken from the session's first file in the run's
   order. A shard reads the files that hold events of its sessions, and also the first file of every other
   session in those files, so that it sees each such session start where the whole run does and leaves it to
   its shard. A file whose sessions all belong to one shard is read by that shard only; a file that mixes
   devices of several shards is read by each of them. Each file's counters (files, bytes, frames, lines,
   malformed lines, unknown types, skipped bytes, faults) are counted by the lowest shard that reads it.
4. shards: one Spark task per shard runs `hig-audit nightly --shard K/N --close-open --shard-files LIST` into
   a partial store under a temporary name, renamed when the run succeeded: a retried task starts again from
   nothing, and a killed attempt leaves only a temporary file.
5. merge: the driver runs `hig-audit merge` over the parts into a new store, renamed over --store.
"""

import argparse
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

# `hig-audit nightly` statuses a shard may end with: 0, or 3 (the run committed but skipped some input:
# malformed lines, corrupt frames; counted in the ingest table).
_COMMITTED = (0, 3)

# `hig-audit nightly --shard K/N` takes N up to this (DeviceShard.maximumCount).
MAXIMUM_SHARDS = 1 << 20


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Run hig-audit over many machines with Spark; the merged store equals one run's.")
    parser.add_argument("inputs", nargs="+", help="log files or directories, at paths every Spark node reads")
    parser.add_argument("--store", required=True, help="the results store to write (replaced when the job succeeds)")
    parser.add_argument("--hig-audit", dest="hig_audit", default="hig-audit",
                        help="the hig-audit executable: a path on every node, or with --ship a file on the driver")
    parser.add_argument("--ship", action="store_true",
                        help="ship the executable (and --config) to the nodes with the job (SparkContext.addFile)")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (spark-submit passes its own)")
    parser.add_argument("--shards", type=int, help="how many shards (default: Spark's default parallelism)")
    parser.add_argument("--work-dir", help="directory shared by every node, in which the job makes a new folder "
                                           "of its own for partial stores and file lists (default: the store's "
                                           "directory); only that folder is removed at the end")
    parser.add_argument("--keep-parts", action="store_true", help="keep the job's folder and the partial stores")
    parser.add_argument("--plan-batch", type=int, default=64, help="files per planning task (default 64)")
    parser.add_argument("--config", help="rule config (YAML) for every shard")
    parser.add_argument("--max-lateness-ms", type=int)
    parser.add_argument("--session-gap-ms", type=int)
    parser.add_argument("--dictionary", action="append", default=[], help="zstd dictionary, as for hig-audit")
    parser.add_argument("--max-window-log", type=int)
    parser.add_argument("--report", help="write the plan and the shards' outcomes here as JSON")
    parser.add_argument("--simulate-kill-shard", type=int,
                        help="tests: the first attempt of this shard SIGKILLs its hig-audit mid-run and its Python "
                             "worker exits hard, as a lost executor would; Spark must retry it (local[2,3])")
    options = parser.parse_args(argv)
    if options.shards is not None and not 1 <= options.shards <= MAXIMUM_SHARDS:
        parser.error("--shards takes 1 to %d, not %d" % (MAXIMUM_SHARDS, options.shards))
    problem = output_problem(options)
    if problem:
        parser.error(problem)
    return options


def output_problem(options):
    """What is wrong with the job's outputs, found before any work (a mistake found after an hour of shards
    costs the hour): --store and --report must be files in existing folders, --work-dir a folder."""
    for flag, path in (("--store", options.store), ("--report", options.report)):
        if path is None:
            continue
        if os.path.isdir(path):
            return "%s %s is a folder; name the file to write" % (flag, path)
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            return "%s %s: the folder %s does not exist" % (flag, path, parent)
        if not os.access(parent, os.W_OK | os.X_OK):
            return "%s %s: cannot write in %s" % (flag, path, parent)
    if options.work_dir is not None and os.path.exists(options.work_dir) and not os.path.isdir(options.work_dir):
        return "--work-dir %s is not a folder" % options.work_dir
    return None


def make_job_folder(options, store):
    """A new folder of the job's own for its lists and parts, inside --work-dir or beside the store.

    The job removes only what it made: never --work-dir itself, which may hold anything (even the
    inputs), and a --work-dir it had to create only if nothing else was put there meanwhile.
    """
    parent = os.path.abspath(options.work_dir) if options.work_dir else os.path.dirname(store)
    created = not os.path.exists(parent)
    os.makedirs(parent, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="%s.parts-" % os.path.basename(store), dir=parent)
    os.chmod(folder, 0o755)

    def remove():
        shutil.rmtree(folder, ignore_errors=True)
        if created:
            try:
                os.rmdir(parent)
            except OSError:
                pass
    return folder, remove


def reader_options(options):
    """The options that decide what a file decodes to: the planner's must be the shards'."""
    arguments = []
    for dictionary in options.dictionary:
        arguments += ["--dictionary", dictionary]
    if options.max_window_log is not None:
        arguments += ["--max-window-log", str(options.max_window_log)]
    return arguments


def list_files(executable, options):
    output = subprocess.run(
        [executable, "shard-plan", "--list"] + reader_options(options) + options.inputs,
        check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    return [json.loads(line) for line in output.splitlines() if line]


def plan_batch(executable_of, reader_arguments, batch):
    """Stage 2, on an executor: (file index, session, device hash) for every session of every file."""
    batch = list(batch)
    if not batch:
        return []
    index_of = {path: index for index, path in batch}
    output = subprocess.run(
        [executable_of(), "shard-plan"] + reader_arguments + [path for _, path in batch],
        check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    records = []
    for line in output.splitlines():
        if not line:
            continue
        plan = json.loads(line)
        index = index_of[plan["file"]]
        for device in plan["devices"]:
            for session in device["sessions"]:
                records.append((index, session, device["hash"]))
    return records


def session_files(entries, shards):
    """For one session's (file index, device hash) entries: (file, ({owner}, {first file})) per other file."""
    entries = sorted(entries)
    first_file, first_hash = entries[0]
    owner = first_hash % shards
    return [(index, ({owner}, {first_file} - {index})) for index, _ in entries]


def assign_files(per_file, file_count, shards):
    """Stage 3 on the driver: the files each shard reads, in run order, and the shard counting each file.

    `per_file[f]` is (the shards owning sessions with events in f, the first files of those sessions).
    """
    reads = [set() for _ in range(shards)]
    for index, (owners, _) in per_file.items():
        for shard in owners:
            reads[shard].add(index)
    # A shard also reads the first file of every session in the files it reads, so that each session
    # starts there with the device the whole run sees first (else a later event naming another device
    # would make the session look like this shard's).
    for shard in range(shards):
        pending = list(reads[shard])
        while pending:
            index = pending.pop()
            for first in per_file.get(index, (set(), set()))[1]:
                if first not in reads[shard]:
                    reads[shard].add(first)
                    pending.append(first)
    counter = {}
    for shard in range(shards):
        for index in reads[shard]:
            counter[index] = min(counter.get(index, shard), shard)
    # Files no session lives in (empty, all malformed, unreadable) are still counted, by shard 0.
    for index in range(file_count):
        if index not in counter:
            reads[0].add(index)
            counter[index] = 0
    return [sorted(files) for files in reads], counter


def run_shard(executable_of, arguments, work_dir, shards, lists, kill_shard, shard):
    """Stage 4, on an executor: one shard's partial store, renamed into place only when complete."""
    from pyspark import TaskContext

    context = TaskContext.get()
    attempt = context.attemptNumber() if context else 0
    final = os.path.join(work_dir, "part-%d-of-%d.sqlite" % (shard, shards))
    temporary = "%s.attempt-%d-%s" % (final, attempt, uuid.uuid4().hex[:8])
    command = [executable_of(), "nightly", "--quiet", "--store", temporary, "--close-open",
               "--shard", "%d/%d" % (shard, shards), "--shard-files", lists[shard]] + arguments
    started = time.time()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if kill_shard == shard and attempt == 0:
        # A lost executor: the tool dies mid-run, then the worker itself.
        time.sleep(0.3)
        process.send_signal(signal.SIGKILL)
        process.wait()
        os._exit(137)
    _, errors = process.communicate()
    if process.returncode not in _COMMITTED:
        raise RuntimeError("shard %d/%d: hig-audit nightly exited with %d: %s"
                           % (shard, shards, process.returncode, errors.decode("utf-8", "replace")[-2000:]))
    os.replace(temporary, final)
    return (shard, final, process.returncode, attempt, time.time() - started)


def replace_store(merged, store):
    """Renames the merged store over --store while holding STORE.lock, the lock `hig-audit merge` and
    the nightly wrapper take: a merge into the same store that is between reading it and renaming its
    own result would otherwise put back the store as it was and lose this job's, without a word."""
    path = store + ".lock"
    # Non-blocking open, as merge's: a FIFO where the lock file goes must not hold the job in open(2).
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK, 0o644)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.stderr.write("hig-audit-spark: waiting for %s (another run or merge holds it)\n" % path)
            sys.stderr.flush()
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        os.replace(merged, store)
    finally:
        # The lock file stays, as merge leaves it: removing it could let a waiting process and a new
        # one lock two different files.
        os.close(descriptor)


def executable_getter(options):
    if not options.ship:
        path = options.hig_audit
        return lambda: path
    name = os.path.basename(options.hig_audit)

    def shipped():
        from pyspark import SparkFiles
        path = SparkFiles.get(name)
        if not os.access(path, os.X_OK):
            os.chmod(path, 0o755)
        return path
    return shipped


def shard_arguments(options):
    arguments = reader_options(options)
    if options.config:
        if options.ship:
            arguments += ["--config", "SPARKFILES:" + os.path.basename(options.config)]
        else:
            arguments += ["--config", options.config]
    if options.max_lateness_ms is not None:
        arguments += ["--max-lateness-ms", str(options.max_lateness_ms)]
    if options.session_gap_ms is not None:
        arguments += ["--session-gap-ms", str(options.session_gap_ms)]
    return arguments


def main(argv):
    options = parse_arguments(argv)
    # Every node names the files alike, and the tables' source columns do not depend on a task's directory.
    options.inputs = [os.path.abspath(path) for path in options.inputs]
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("hig-audit").config("spark.ui.showConsoleProgress", "false")
    if options.master:
        builder = builder.master(options.master)
    spark = builder.getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("ERROR")
    if options.ship:
        context.addFile(options.hig_audit)
        if options.config:
            context.addFile(options.config)
    shards = options.shards or context.defaultParallelism
    executable_of = executable_getter(options)
    store = os.path.abspath(options.store)
    work_dir, remove_work_dir = make_job_folder(options, store)
    try:
        timings = {}

        # 1. list
        started = time.time()
        files = list_files(options.hig_audit, options)
        timings["list"] = time.time() - started

        # 2. plan
        started = time.time()
        batches = max(1, (len(files) + options.plan_batch - 1) // options.plan_batch)
        reader_arguments = reader_options(options)
        partitions = context.defaultParallelism
        records = context.parallelize(list(enumerate(files)), batches).mapPartitions(
            lambda batch: plan_batch(executable_of, reader_arguments, batch))

        # 3. assign: by session, its files, the first of them and its owner; then by file, the owners of its
        # sessions and their first files (two shuffles; only the per-file sets reach the driver).
        per_file = (records.map(lambda r: (r[1], (r[0], r[2])))
                    .groupByKey(partitions)
                    .flatMap(lambda item: session_files(item[1], shards))
                    .reduceByKey(lambda a, b: (a[0] | b[0], a[1] | b[1]), partitions)
                    .collectAsMap())
        reads, counter = assign_files(per_file, len(files), shards)
        lists = {}
        for shard in range(shards):
            if not reads[shard]:
                continue
            path = os.path.join(work_dir, "shard-%d-of-%d.files" % (shard, shards))
            with open(path, "w", encoding="utf-8") as listing:
                for index in reads[shard]:
                    # The path as a JSON string: a newline or tab in a file name stays inside its line.
                    listing.write("%s\t%s\n" % ("count" if counter[index] == shard else "read",
                                                 json.dumps(files[index], ensure_ascii=False)))
            lists[shard] = path
        timings["plan"] = time.time() - started
        file_reads = sum(len(r) for r in reads)

        # 4. shards
        started = time.time()
        arguments = shard_arguments(options)
        if options.ship and options.config:
            config_name = os.path.basename(options.config)

            def resolve(arguments=arguments):
                from pyspark import SparkFiles
                return [SparkFiles.get(config_name) if a == "SPARKFILES:" + config_name else a for a in arguments]
        else:
            def resolve(arguments=arguments):
                return arguments
        kill_shard = options.simulate_kill_shard
        active = sorted(lists)
        results = context.parallelize(active, max(1, len(active))).map(
            lambda shard: run_shard(executable_of, resolve(), work_dir, shards, lists, kill_shard, shard)).collect()
        timings["shards"] = time.time() - started
        spark.stop()

        # 5. merge
        started = time.time()
        merged = store + ".merge-%d" % os.getpid()
        if os.path.exists(merged):
            os.remove(merged)
        parts = [path for _, path, _, _, _ in sorted(results)]
        try:
            subprocess.run([options.hig_audit, "merge", "--quiet", "--store", merged] + parts, check=True)
            replace_store(merged, store)
        finally:
            # The temporary store's lock file (merges into one store take turns on STORE.lock) is the
            # job's own: nobody else merges into this name.
            for leftover in (merged, merged + ".lock"):
                if os.path.exists(leftover):
                    os.remove(leftover)
        timings["merge"] = time.time() - started

        if options.report:
            with open(options.report, "w", encoding="utf-8") as report:
                json.dump({
                    "files": files,
                    "shards": shards,
                    "reads": {str(shard): reads[shard] for shard in range(shards)},
                    "counted_by": [counter[index] for index in range(len(files))],
                    "results": [{"shard": shard, "status": status, "attempt": attempt, "seconds": round(seconds, 3)}
                                for shard, _, status, attempt, seconds in sorted(results)],
                    "seconds": {stage: round(value, 3) for stage, value in timings.items()},
                }, report, indent=1)
        for shard, _, status, attempt, seconds in sorted(results):
            sys.stderr.write("hig-audit-spark: shard %d/%d: status %d, attempt %d, %.2f s\n"
                             % (shard, shards, status, attempt, seconds))
        sys.stderr.write("hig-audit-spark: %d files, %d file reads by %d shards; list %.2f s, plan %.2f s, "
                         "shards %.2f s, merge %.2f s\n"
                         % (len(files), file_reads, len(active), timings["list"], timings["plan"],
                            timings["shards"], timings["merge"]))
        return 3 if any(status == 3 for _, _, status, _, _ in results) else 0
    finally:
        # Also when a stage failed: a retry starts from nothing, so what this job made is only debris.
        if options.keep_parts:
            sys.stderr.write("hig-audit-spark: partial stores kept in %s\n" % work_dir)
        else:
            remove_work_dir()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
