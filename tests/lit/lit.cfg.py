# IR tests of the kernel compiler's passes: each .ll file runs clcpu-opt on
# itself (its RUN lines, with an explicit target) and checks the output with
# FileCheck. tests/CMakeLists.txt generates lit.site.cfg.py, which sets the
# tool paths and loads this file.
import os

import lit.formats

config.name = "clcpu-ir"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".cl"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.clcpu_binary_dir, "tests", "lit")
config.excludes = ["Inputs"]

# clcpu-opt from the build tree; FileCheck, not and count from LLVM 19.
config.substitutions.append(("%clcpu-opt", config.clcpu_opt))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])


def context_offsets(def_path):
    """The byte offset of each WorkGroupContext field, from the one list
    compiler/WorkGroupContext.def: the launch fields, then the group
    fields, each starting at a 64-bit word and Count words long (the
    static_asserts of compiler/WorkGroupContext.h hold the layout to
    that)."""
    import re
    field = re.compile(r"^CLCPU_(LAUNCH|GROUP)_FIELD\((\w+),\s*[^,]+,\s*(\d+),")
    offsets, word = {}, 0
    with open(def_path) as f:
        for line in f:
            m = field.match(line)
            if m:
                offsets[m.group(2)] = word * 8
                word += int(m.group(3))
    return offsets


# %ctx-vars: FileCheck numeric variables CTX_<Field> holding each context
# field's byte offset and CTXW_<Field> its word index, so that a test that
# checks a field's load does not hard-code the layout: `getelementptr
# inbounds i8, ptr %1, i64 [[#CTX_SubGroupSize]]` after instcombine,
# `getelementptr inbounds i64, ptr %ctx, i64 [[#CTXW_Yield]]` before.
_offsets = context_offsets(os.path.join(
    os.path.dirname(__file__), "..", "..", "compiler", "WorkGroupContext.def"))
config.substitutions.append(("%ctx-vars", " ".join(
    ["-D#CTX_%s=%d" % kv for kv in _offsets.items()] +
    ["-D#CTXW_%s=%d" % (k, v // 8) for k, v in _offsets.items()])))
