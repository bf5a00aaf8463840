#!/usr/bin/env python3
"""The build's compile commands, rewritten for clang-tidy (tools/check-tidy.sh).

  tidy_compile_commands.py BUILD_DIR OUT_DIR FILES_REGEX

Writes OUT_DIR/compile_commands.json from BUILD_DIR's, for the files that
FILES_REGEX matches (the ones tools/check-tidy.sh lints), with the warnings
clang does not share turned off (NOT_FOR_CLANG):
- The build's own include folders (the generated protobuf and gRPC headers)
  become system folders. clang-tidy then skips their declarations, as it does
  the system headers'; it matched them for nothing (nothing of theirs is
  reported, HeaderFilterRegex), and that was 40 % of a service file's time.
- A precompiled header GCC built (cmake_pch.hxx.gch, which clang cannot read)
  is built again by clang++-22, the compiler of clang-tidy-22, from the same
  header and flags, and the file is linted with it (-include-pch): the
  gRPC, protobuf and Abseil headers are parsed once, not once per file. The
  header lists third-party and generated headers only, so nothing of the
  project's is hidden from the checks. Where clang cannot build it, the files
  are linted without it, each parsing the headers it names (slower, the same
  findings).
"""
import json
import os
import re
import shlex
import subprocess
import sys

CLANG = "clang++-22"
# GCC's flags that clang does not share, on every command and on the
# precompiled header: abseil's flags use __COUNTER__ (a C2y extension under
# -Wpedantic), libstdc++ 12 calls its own deprecated get_temporary_buffer; the
# compilers check both.
NOT_FOR_CLANG = ["-Wno-c2y-extensions", "-Wno-deprecated-declarations"]
# CMake's header starts with GCC's system_header pragma, which clang refuses
# in the file it compiles (the precompiled header).
PCH_ONLY = ["-Wno-pragma-system-header-outside-header"]


def build_pch(command, header, directory, out):
    """clang's precompiled `header` for `command`'s flags at `out`, or None."""
    args = shlex.split(command)[1:]  # without the compiler
    flags, i = [], 0
    while i < len(args):  # without the output, the source and GCC's header
        if args[i] in ("-o", "-c", "-include"):
            i += 2
            continue
        flags.append(args[i])
        i += 1
    cmd = [CLANG, *flags, *NOT_FOR_CLANG, *PCH_ONLY, "-x", "c++-header", header, "-o", out]
    done = subprocess.run(cmd, cwd=directory, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"tidy: no precompiled header for {header} ({CLANG} failed: "
              f"{done.stderr.strip()[:300]}); linting without it", file=sys.stderr)
        return None
    return out


def main():
    build, out_dir, files = os.path.abspath(sys.argv[1]), sys.argv[2], re.compile(sys.argv[3])
    entries = [e for e in json.load(open(os.path.join(build, "compile_commands.json")))
               if files.search(e["file"])]
    generated = re.escape(build)
    pchs = {}  # GCC's precompiled header's source -> clang's, or None
    for e in entries:
        cmd = re.sub(r" -Winvalid-pch", "", e["command"])
        cmd = re.sub(r" -I(" + generated + r"/\S*)", r" -isystem \1", cmd)
        m = re.search(r" -include (\S*cmake_pch\.hxx)", cmd)
        if m:
            header = m.group(1)
            if header not in pchs:
                out = os.path.join(out_dir, f"pch{len(pchs)}.pch")
                pchs[header] = build_pch(cmd, header, e["directory"], out)
            use = f" -include-pch {pchs[header]}" if pchs[header] else ""
            cmd = cmd.replace(m.group(0), use)
        e["command"] = " ".join([cmd, *NOT_FOR_CLANG])
    json.dump(entries, open(os.path.join(out_dir, "compile_commands.json"), "w"))


if __name__ == "__main__":
    main()
