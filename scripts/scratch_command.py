# A file's compile command from this build's compile_commands.json, pointed at a scratch copy
# of the tree and without its outputs (-o, dependency files, -c), so that a check compiles the
# copy with this build's own flags. A precompiled header (test binaries: -include
# .../cmake_pch.hxx) is left out: it holds only third-party and standard headers, which each
# source includes itself, and it is not in the scratch tree. Shared by collective-checklist.sh and check-no-default.sh
# (they import it with PYTHONPATH=scripts; /usr/bin/python3, no packages).
import shlex


def scratch_command(entry, root, build, scratch):
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        if a in ("-MD", "-MMD", "-c", "-Winvalid-pch"):
            continue
        if a == "-include" and i + 1 < len(args) and "cmake_pch" in args[i + 1]:
            skip = True
            continue
        out.append(a.replace(build, scratch + "/build").replace(root, scratch))
    return out
