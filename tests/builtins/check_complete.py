#!/usr/bin/env python3
"""Every builtin a program may call has a definition.

Asks the device (through the ICD loader) for its extensions and OpenCL C
features, declares the builtins Clang's opencl-c.h declares for exactly
those macros (the same set -fdeclare-opencl-builtins declares when a
program is built; OpenCL C 3.0), plus those of the headers given with
--include (builtins/opencl-c-clcpu.h, which the frontend includes into
every program after Clang's), and checks that the builtin library
(each ISA variant) defines every one of them, except the functions the
compiler itself lowers (work-item functions, barriers and fences,
work-group and sub-group collectives, printf, address-space queries).

A builtin declared but not defined fails a program's build at the first
call (the JIT cannot resolve it); this test names them before a program
does.

usage: check_complete.py CLANG LLVM_NM RESOURCE_DIR [--include HEADER]...
                         LIBRARY.bc...
"""
import ctypes
import json
import subprocess
import sys
import tempfile

CL_PLATFORM_NAME = 0x0902
CL_DEVICE_TYPE_ALL = 0xFFFFFFFF
CL_DEVICE_EXTENSIONS = 0x1030
CL_DEVICE_OPENCL_C_FEATURES = 0x106F
NAME_VERSION_SIZE = 4 + 64  # cl_name_version: cl_version + name[64]

# Lowered by the compiler (compiler/WorkItemCalls, LowerWorkGroupSync,
# InlineCollectives, Printf, WorkGroupFunction), not linked from the
# library: unmangled-name prefixes.
COMPILER_LOWERED = (
    "get_", "barrier", "work_group_barrier", "sub_group_barrier",
    "work_group_", "sub_group_", "printf", "to_global", "to_local",
    "to_private", "mem_fence", "read_mem_fence", "write_mem_fence",
    "atomic_work_item_fence", "wait_group_events",
)


def device_macros():
    cl = ctypes.CDLL("libOpenCL.so.1")
    V, U, S = ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t
    SP = ctypes.POINTER(S)
    cl.clGetPlatformIDs.argtypes = [U, V, ctypes.POINTER(U)]
    cl.clGetPlatformInfo.argtypes = [V, U, S, V, SP]
    cl.clGetDeviceIDs.argtypes = [V, ctypes.c_ulong, U, V, ctypes.POINTER(U)]
    cl.clGetDeviceInfo.argtypes = [V, U, S, V, SP]

    def query(fn, obj, param):
        size = S()
        if fn(obj, param, 0, None, ctypes.byref(size)) != 0:
            sys.exit(f"query {param:#x} failed")
        buf = ctypes.create_string_buffer(size.value)
        fn(obj, param, size, buf, None)
        return buf.raw

    n = U()
    cl.clGetPlatformIDs(0, None, ctypes.byref(n))
    ids = (V * n.value)()
    cl.clGetPlatformIDs(n, ids, None)
    for p in ids:
        if query(cl.clGetPlatformInfo, p, CL_PLATFORM_NAME).rstrip(b"\0") \
                != b"clcpu":
            continue
        d = V()
        cl.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, ctypes.byref(d), None)
        exts = query(cl.clGetDeviceInfo, d, CL_DEVICE_EXTENSIONS)
        raw = query(cl.clGetDeviceInfo, d, CL_DEVICE_OPENCL_C_FEATURES)
        feats = [raw[i + 4:i + NAME_VERSION_SIZE].split(b"\0")[0].decode()
                 for i in range(0, len(raw), NAME_VERSION_SIZE)]
        return exts.rstrip(b"\0").decode().split() + feats
    sys.exit("no clcpu platform (is OCL_ICD_VENDORS set?)")


def declared(clang, resource, macros, includes):
    """Mangled names of the functions opencl-c.h and the headers in
    includes declare for exactly these macros."""
    with tempfile.NamedTemporaryFile(suffix=".cl") as src:
        args = [clang, "-cc1", "-triple", "x86_64-unknown-linux-gnu",
                "-x", "cl", "-cl-std=CL3.0", "-finclude-default-header",
                "-resource-dir", resource, "-internal-isystem",
                resource + "/include", "-cl-ext=-all",
                "-ast-dump=json", "-ast-dump-filter", "", src.name]
        for h in includes:
            args[-1:-1] = ["-include", h]
        # Known to Clang: enabled options (they gate types such as half);
        # every name also a macro (opencl-c.h tests the macros). The image
        # types, which opencl-c.h uses in declarations it does not gate on
        # __opencl_c_images, are enabled for the parse; functions taking
        # them are left out below where the device has no images.
        args[args.index("-cl-ext=-all")] = "-cl-ext=-all," + ",".join(
            "+" + m for m in macros + ["__opencl_c_images",
                                       "__opencl_c_read_write_images",
                                       "__opencl_c_3d_image_writes",
                                       "cl_khr_3d_image_writes"])
        args[-1:-1] = ["-D" + m + "=1" for m in macros]
        out = subprocess.run(args, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("clang failed:\n" + out.stderr[-2000:])
    names = {}
    decoder = json.JSONDecoder()
    text, pos = out.stdout, 0
    while True:
        while pos < len(text) and text[pos] != "{":
            pos += 1
        if pos >= len(text):
            break
        node, pos = decoder.raw_decode(text, pos)
        stack = [node]
        while stack:
            n = stack.pop()
            if n.get("kind") == "FunctionDecl" and "mangledName" in n:
                names[n["mangledName"]] = n.get("name", "")
            stack.extend(n.get("inner", []))
    return names


def defined(llvm_nm, library):
    out = subprocess.run([llvm_nm, "--defined-only", "-j", library],
                         capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def main():
    clang, llvm_nm, resource, *rest = sys.argv[1:]
    includes, libraries = [], []
    while rest:
        arg = rest.pop(0)
        if arg == "--include":
            includes.append(rest.pop(0))
        else:
            libraries.append(arg)
    macros = device_macros()
    names = declared(clang, resource, macros, includes)
    # The image builtins (queries included: get_image_* is the library's)
    # count where the device reports images.
    images = "__opencl_c_images" in macros
    wanted = {m for m, n in names.items()
              if (not n.startswith(COMPILER_LOWERED)
                  or n.startswith("get_image_"))
              and (images or ("ocl_image" not in m
                              and "ocl_sampler" not in m))}
    failed = False
    for lib in libraries:
        missing = sorted(wanted - defined(llvm_nm, lib))
        print(f"{lib}: {len(wanted)} builtins declared for the device's "
              f"{len(macros)} extensions and features, {len(missing)} "
              "without a definition")
        for m in missing[:200]:
            print("  missing:", m, f"({names[m]})")
        failed |= bool(missing)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
