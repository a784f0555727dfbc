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
