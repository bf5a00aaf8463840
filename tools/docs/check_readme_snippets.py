"""The README's C++ example is examples/cpp/engine_tour.cc (the lines between
its `// [readme]` markers, one indent level less): fails when they differ, so
the README cannot drift from code the tests compile and run
(ctest Docs.ReadmeSnippets; Examples.CppEngineTour runs the program).

Usage: check_readme_snippets.py ROOT
"""
import sys


def main(root):
    src = open(root + "/examples/cpp/engine_tour.cc").read()
    a = src.index("  // [readme]\n") + len("  // [readme]\n")
    b = src.index("  // [/readme]")
    lines = src[a:b].rstrip("\n").split("\n")
    expected = "\n".join(line[2:] if line.startswith("  ") else line for line in lines)
    readme = open(root + "/README.md").read()
    i = readme.index("## Using the engine from C++")
    j = readme.index("```cpp\n", i) + len("```cpp\n")
    k = readme.index("```", j)
    block = readme[j:k].rstrip("\n")
    header = '#include "engine/engine.h"\n\n'
    if not block.startswith(header) or block[len(header):] != expected:
        print("README.md's C++ example differs from examples/cpp/engine_tour.cc:")
        print("--- README\n%s\n--- engine_tour.cc\n%s" % (block, header + expected))
        return 1
    print("README.md's C++ example is examples/cpp/engine_tour.cc")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
