#!/usr/bin/env python3
"""ctest Layers.NoUpwardIncludes: the service's folders are floors.

Reads the floors from service/CMakeLists.txt, the same stud_service_library(NAME ... SRCS ...
DEPS ...) calls that build them, and fails when
  - a file of service/<folder>/ includes a header of a service folder that is not its own and
    not among the folders its library depends on (directly or through the floors below);
  - the declared dependencies between folders form a cycle;
  - a .cc file of a folder is in no library's SRCS, or a SRCS entry names a missing file (a file
    outside its folder's library would escape the check).
service/fairness/ is its own library (stud_fairness) and may include no other service folder;
service/server/main.cc is stud_server's and may include every folder.

Usage: service_layers_test.py <source root>
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"service/([a-z_]+)/[^"]+"', re.M)
CALL = re.compile(r"stud_service_library\((.*?)\)", re.S)
TARGET = re.compile(r"^stud_service_([a-z_]+)$")
# Files that belong to an executable, not to their folder's library.
EXECUTABLE_SOURCES = {"server/main.cc"}


def read_floors(cmake_text):
    """{folder: (srcs, deps)} from the stud_service_library calls; deps are folder names."""
    floors = {}
    for call in CALL.finditer(cmake_text):
        words = [w for w in re.sub(r"#.*", "", call.group(1)).split() if w]
        section, name, srcs, deps = None, None, [], set()
        for w in words:
            if w in ("NAME", "SRCS", "DEPS"):
                section = w
            elif section == "NAME":
                name = w
            elif section == "SRCS":
                srcs.append(w)
            elif section == "DEPS":
                if w == "stud_fairness":
                    deps.add("fairness")
                elif TARGET.match(w):
                    deps.add(TARGET.match(w).group(1))
        if name:
            floors[name] = (srcs, deps)
    floors.setdefault("fairness", ([], set()))
    return floors


def closure(floors, folder):
    seen, todo = set(), list(floors[folder][1])
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(floors.get(f, ([], set()))[1])
    return seen


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    service = os.path.join(root, "service")
    with open(os.path.join(service, "CMakeLists.txt")) as f:
        floors = read_floors(f.read())
    errors = []
    if len(floors) < 3:
        errors.append("service/CMakeLists.txt: found no stud_service_library floors")
    for folder in floors:
        if folder in closure(floors, folder):
            errors.append(f"{folder}: its DEPS lead back to itself (a cycle)")
    folders = sorted(d for d in os.listdir(service) if os.path.isdir(os.path.join(service, d)))
    for folder in folders:
        if folder not in floors:
            errors.append(f"service/{folder}/: no stud_service_library(NAME {folder} ...)")
            continue
        srcs, _ = floors[folder]
        allowed = closure(floors, folder) | {folder}
        for src in srcs:
            if not os.path.exists(os.path.join(service, folder, src)):
                errors.append(f"service/CMakeLists.txt: {folder}/{src} does not exist")
        for name in sorted(os.listdir(os.path.join(service, folder))):
            path = os.path.join(service, folder, name)
            rel = f"{folder}/{name}"
            if not name.endswith((".h", ".cc")):
                continue
            if rel in EXECUTABLE_SOURCES:
                continue
            if name.endswith(".cc") and folder != "fairness" and name not in srcs:
                errors.append(f"service/{rel}: in no library's SRCS (service/CMakeLists.txt)")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                if m.group(1) not in allowed:
                    line = text.count("\n", 0, m.start()) + 1
                    errors.append(
                        f"service/{rel}:{line}: includes service/{m.group(1)}/, a floor "
                        f"{folder}/ does not depend on (its floors: {sorted(allowed - {folder})})")
    for e in errors:
        print(e)
    if errors:
        print(f"FAIL: {len(errors)} layering problem(s); the floors are in service/README.md")
        return 1
    print(f"OK: {len(folders)} folders, no upward include")
    return 0


if __name__ == "__main__":
    sys.exit(main())
