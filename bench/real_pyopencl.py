#!/usr/bin/env python3
"""pyopencl's scan and radix sort on two OpenCL platforms and numpy.

The pyopencl rows of clcpu_real_bench (bench/real_bench.cpp), which runs
this script and prints its results in its table. Per row: each platform's
kernels are built and run once (warm-up) and checked against numpy, then
every repetition runs A, then B, then numpy, and the results are checked
again. Platforms are chosen by a substring of their name, as in
clcpu_bench. On the clcpu platform, the kernel path lines clcpu prints while
pyopencl builds (CLCPU_LOG_KERNEL_PATHS, set by clcpu_real_bench) are read
from standard error.

Output, one tab-separated line each (read by clcpu_real_bench):
  row NAME UNIT WHAT
  host NAME WHAT
  result NAME A|B|host STATUS VALUES WHY   (VALUES comma-separated)
  path NAME KERNEL PATH
  skip REASON                              (nothing could run)
Exit status 1 if a result was wrong or failed.
"""

import argparse
import os
import sys
import tempfile
import time


def emit(*fields):
    print("\t".join(str(f).replace("\t", " ").replace("\n", " ")
                    for f in fields), flush=True)


try:
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cl_array
    from pyopencl.algorithm import RadixSort
    from pyopencl.scan import GenericScanKernel
except ImportError as e:  # the rows are skipped, not failed
    emit("skip", "no pyopencl or numpy for %s (Debian: python3-pyopencl): %s"
         % (sys.executable, e))
    sys.exit(0)


class StderrCapture:
    """File descriptor 2 into a temporary file while the block runs, so that
    clcpu's path lines ("clcpu: kernel NAME: PATH") can be read; the other
    lines go back to standard error."""

    def __enter__(self):
        sys.stderr.flush()
        self.tmp = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.tmp.fileno(), 2)
        self.paths = {}
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.tmp.seek(0)
        prefix = "clcpu: kernel "
        for line in self.tmp.read().decode(errors="replace").splitlines():
            name, sep, path = line[len(prefix):].partition(": ")
            if line.startswith(prefix) and sep:
                self.paths[name] = path
            else:
                print(line, file=sys.stderr)
        self.tmp.close()
        return False


def find_platform(query):
    for p in cl.get_platforms():
        if query in p.name:
            return p
    names = ", ".join(p.name for p in cl.get_platforms())
    raise SystemExit("real_pyopencl.py: no platform named like \"%s\" "
                     "(have: %s; check OCL_ICD_VENDORS)" % (query, names))


def timed(fn, queue=None):
    """Seconds per call: fn repeated until 50 ms have passed."""
    calls = 0
    start = now = time.perf_counter()
    while now - start < 0.05:
        fn()
        if queue is not None:
            queue.finish()
        calls += 1
        now = time.perf_counter()
    return (now - start) / calls


class Scan:
    """Exclusive scan of ints with GenericScanKernel, out of place."""
    name, unit = "scan_16M", "GB/s"

    def __init__(self, smoke):
        self.n = 1 << 16 if smoke else 16 << 20
        self.what = ("pyopencl GenericScanKernel, exclusive scan of %d ints "
                     "(8 bytes each)" % self.n)
        self.host_what = "numpy.cumsum into an int32 array (1 thread)"
        self.work = self.n * 8e-9
        rng = np.random.default_rng(1)
        # Small values: the sum of 16M stays within int32.
        self.data = rng.integers(0, 16, self.n, dtype=np.int32)
        inclusive = np.cumsum(self.data, dtype=np.int64)
        self.ref = (inclusive - self.data).astype(np.int32)
        self.host_out = np.empty_like(self.data)

    def make(self, ctx, queue):
        knl = GenericScanKernel(
            ctx, np.int32,
            arguments="__global int *ary, __global int *out",
            input_expr="ary[i]", scan_expr="a+b", neutral="0",
            output_statement="out[i] = prev_item;")
        a = cl_array.to_device(queue, self.data)
        out = cl_array.empty_like(a)
        state = {}

        def run():
            knl(a, out, queue=queue)
            state["out"] = out

        def check():
            run()
            queue.finish()
            got = out.get()
            bad = np.nonzero(got != self.ref)[0]
            if bad.size:
                i = bad[0]
                return "element %d is %d, expected %d (%d wrong)" % (
                    i, got[i], self.ref[i], bad.size)
            return ""
        return run, check

    def host(self):
        np.cumsum(self.data, out=self.host_out)


class Sort:
    """pyopencl.algorithm.RadixSort of uint32 keys, all 32 bits."""
    name, unit = "radix_sort_4M", "Mkeys/s"

    def __init__(self, smoke):
        self.n = 1 << 14 if smoke else 4 << 20
        self.what = ("pyopencl.algorithm.RadixSort of %d uint32 keys, 32 key "
                     "bits" % self.n)
        self.host_what = "numpy.sort (1 thread)"
        self.work = self.n * 1e-6
        rng = np.random.default_rng(2)
        self.data = rng.integers(0, 1 << 32, self.n, dtype=np.uint32)
        self.ref = np.sort(self.data)

    def make(self, ctx, queue):
        sort = RadixSort(ctx, "unsigned int *ary", key_expr="ary[i]",
                         sort_arg_names=["ary"], key_dtype=np.uint32)
        a = cl_array.to_device(queue, self.data)
        state = {}

        def run():
            (state["out"],), _ = sort(a, key_bits=32, queue=queue)

        def check():
            run()
            queue.finish()
            got = state["out"].get()
            bad = np.nonzero(got != self.ref)[0]
            if bad.size:
                i = bad[0]
                return "element %d is %d, expected %d (%d wrong)" % (
                    i, got[i], self.ref[i], bad.size)
            return ""
        return run, check

    def host(self):
        np.sort(self.data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="clcpu")
    ap.add_argument("--b", default="Portable Computing Language")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    queries = [args.a] + ([] if args.b == "none" else [args.b])
    platforms = []
    for q in queries:
        p = find_platform(q)
        dev = p.get_devices()[0]
        ctx = cl.Context([dev])
        platforms.append((p, ctx, cl.CommandQueue(ctx, dev)))
    clcpu = next((i for i, (p, _, _) in enumerate(platforms)
                  if "clcpu" in p.name), -1)
    only = [r for r in args.only.split(",") if r]
    bad = False
    for cls in (Scan, Sort):
        if only and cls.name not in only:
            continue
        row = cls(args.smoke)
        emit("row", row.name, row.unit, row.what)
        emit("host", row.name, row.host_what)
        runs, checks, status, why, values = [], [], [], [], []
        for i, (p, ctx, queue) in enumerate(platforms):
            runs.append(None)
            checks.append(None)
            status.append("ok")
            why.append("")
            values.append([])
            try:
                with StderrCapture() as cap:
                    run, check = row.make(ctx, queue)
                    run()  # warm-up: builds the kernels
                    queue.finish()
                if i == clcpu:
                    for k, path in cap.paths.items():
                        emit("path", row.name, k, path)
                wrong = check()
                if wrong:
                    status[i], why[i] = "FAIL", "wrong result: " + wrong
                else:
                    runs[i], checks[i] = run, check
            except Exception as e:  # a platform's failure is its result
                status[i], why[i] = "FAIL", "%s: %s" % (type(e).__name__, e)
        host = []
        for _ in range(args.reps):
            for i, (p, ctx, queue) in enumerate(platforms):
                if runs[i] is None:
                    continue
                try:
                    values[i].append(row.work / timed(runs[i], queue))
                except Exception as e:
                    status[i], why[i] = "FAIL", "%s: %s" % (type(e).__name__,
                                                            e)
                    runs[i], values[i] = None, []
            host.append(row.work / timed(row.host))
        for i, (p, ctx, queue) in enumerate(platforms):
            if runs[i] is not None:
                wrong = checks[i]()
                if wrong:
                    status[i], why[i] = "FAIL", "wrong result: " + wrong
                    values[i] = []
            bad = bad or status[i] != "ok"
            emit("result", row.name, "AB"[i], status[i],
                 ",".join("%.6g" % v for v in values[i]), why[i])
        emit("result", row.name, "host", "ok",
             ",".join("%.6g" % v for v in host), "")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
