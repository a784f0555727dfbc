# IR tests of the kernel compiler: each file runs clcpu-opt on itself (its
# RUN lines, with an explicit target) and checks the output with FileCheck.
# passes/*.ll run one pass each, pipeline/ the optimizer and the kernels'
# paths, kernels/*.cl the whole pipeline (-passes=clcpu-kernels) on OpenCL C
# kernels, checking the final IR of their work-group functions. The passes
# read the vector ISA from the functions' "target-features" (its "+feature"
# entries, not what -mcpu implies), so a .cl test names the features it
# depends on with -mattr too: -mcpu=znver4 -mattr=+avx512f,+avx2,+fma, or
# -mcpu=x86-64-v3 -mattr=+avx2,+fma,+fast-gather (the driver adds
# +fast-gather on AVX2 hosts). The sub-group size is the host's
# (compiler::hostSubGroupSize) whatever the target: tests match it with a
# regex or a FileCheck variable, and one whose IR depends on the target's
# vectors being one sub-group wide picks its target with
# `%if host-avx512 %{ ... %} %else %{ ... %}` (features set below).
# tests/CMakeLists.txt generates lit.site.cfg.py, which sets the tool paths
# and loads this file.
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


# The host's vector ISA, as compiler::hostSubGroupSize sees it: 16 lanes with
# AVX-512F, 8 with AVX, else 4.
def _host_cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


_flags = _host_cpu_flags()
if "avx512f" in _flags:
    config.available_features.add("host-avx512")
if "avx" in _flags:
    config.available_features.add("host-avx")
