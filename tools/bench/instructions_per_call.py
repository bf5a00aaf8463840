#!/usr/bin/env python3
"""Instructions and heap allocations per call of one function, from callgrind.

A count that does not depend on the machine's speed or on other users, so a
change of a few percent shows on a noisy two-core machine where timings do
not. Runs a Google Benchmark binary twice under callgrind (two run lengths:
the set-up before the timed loop is the same in both and cancels) and prints,
per call of FUNCTION, its marginal inclusive instructions and the heap
allocations (malloc and operator new) the whole program made (the benchmark
loop's own included).

    tools/bench/instructions_per_call.py build/tests/service/service_bench \
        'BM_ApplyAction_9_Total/1$' 'HandService::ApplyAction('

Needs valgrind (Debian: valgrind).
"""
import os
import re
import subprocess
import sys
import tempfile

FN = re.compile(r"(c?fn)=\((\d+)\)(?: (.*))?")


def is_allocation(caller, target):
    """A call that allocates heap memory: malloc, or operator new (or new[]),
    which jemalloc (the server's allocator, STUD_MALLOC) serves itself and
    glibc's libstdc++ serves through malloc. Counted once, at the outermost:
    jemalloc's operator new[] calls its operator new, libstdc++'s calls
    malloc."""
    if caller.startswith("operator new"):
        return False
    return target.startswith("operator new") or target == "malloc"


def profile(binary, bench_filter, min_time, function):
    """(calls of function, inclusive instructions of those calls, calls to malloc)."""
    fd, out = tempfile.mkstemp(suffix=".callgrind")
    os.close(fd)
    try:
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary,
             "--benchmark_filter=" + bench_filter, "--benchmark_min_time=" + min_time],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        names, caller, target = {}, "", None
        calls = instructions = mallocs = 0
        with open(out) as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            m = FN.match(line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if m.group(1) == "cfn":
                    target = names.get(m.group(2), "")
                else:
                    caller, target = names.get(m.group(2), ""), None
                continue
            if not line.startswith("calls=") or target is None:
                continue
            n = int(line.split("=")[1].split()[0])
            if function in target:
                calls += n
                instructions += int(lines[i + 1].split()[1])  # "<position> <Ir>"
            elif is_allocation(caller, target):
                mallocs += n
        return calls, instructions, mallocs
    finally:
        os.remove(out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, bench_filter, function = sys.argv[1:]
    short, long_ = os.environ.get("MIN_TIMES", "0.01,0.4").split(",")
    c1, i1, m1 = profile(binary, bench_filter, short, function)
    c2, i2, m2 = profile(binary, bench_filter, long_, function)
    if c2 <= c1:
        sys.exit(f"{function}: not called more in the longer run")
    n = c2 - c1
    print(f"{bench_filter} {function}: {(i2 - i1) / n:.0f} instructions, "
          f"{(m2 - m1) / n:.1f} mallocs per call ({n} calls)")


if __name__ == "__main__":
    main()
