#!/usr/bin/env python3
"""Generates builtins/convert.cl: OpenCL C 3.0 6.4.3 explicit conversions
convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>) for every pair of
scalar types (char ... double, half) and every width."""

import sys

INTS = {  # name: (bits, signed)
    "char": (8, True), "uchar": (8, False), "short": (16, True),
    "ushort": (16, False), "int": (32, True), "uint": (32, False),
    "long": (64, True), "ulong": (64, False),
}
FLOATS = {"float": 24, "double": 53, "half": 11}  # mantissa bits
TYPES = list(INTS) + list(FLOATS)
ROUNDINGS = ["", "_rte", "_rtz", "_rtp", "_rtn"]
WIDTHS = [2, 3, 4, 8, 16]


def int_limits(t):
    bits, signed = INTS[t]
    if signed:
        return f"({-(1 << (bits - 1))}L)" if bits == 64 else f"({-(1 << (bits - 1))})", \
            f"({(1 << (bits - 1)) - 1}L)" if bits == 64 else f"({(1 << (bits - 1)) - 1})"
    return "0", f"({(1 << bits) - 1}UL)" if bits == 64 else f"({(1 << bits) - 1}U)"


def body(dst, src, sat, rnd):
    """C statements converting scalar `x` of type src to dst."""
    if dst in INTS:
        dbits, dsigned = INTS[dst]
        lo, hi = int_limits(dst)
        if src in INTS:
            sbits, ssigned = INTS[src]
            if not sat:
                return f"return ({dst})x;"
            checks = []
            if ssigned and not dsigned:
                checks.append(f"if (x < 0) return 0;")
            if ssigned and dsigned and sbits > dbits:
                checks.append(f"if (x < {lo}) return {lo};")
            # upper bound: compare as ulong when x is non-negative here
            if sbits > dbits or (sbits == dbits and not ssigned and dsigned):
                if ssigned:
                    checks.append(f"if (x > 0 && (ulong)x > (ulong){hi}) return {hi};")
                else:
                    checks.append(f"if ((ulong)x > (ulong){hi}) return {hi};")
            return " ".join(checks + [f"return ({dst})x;"])
        # half -> integer: every half is exactly a float.
        if src == "half":
            return f"return cv_{dst}_float{sat}{rnd}((float)x);"
        # floating point -> integer: round, then saturate (NaN -> 0).
        suf = "f" if src == "float" else ""
        fn = {"": "trunc", "_rtz": "trunc", "_rte": "rint", "_rtp": "ceil",
              "_rtn": "floor"}[rnd]
        s = f"{src} r = __builtin_{fn}{suf}(x);"
        if not sat:
            return s + f" return ({dst})r;"
        top = f"0x1p{dbits - 1 if dsigned else dbits}"
        bottom = f"-0x1p{dbits - 1}" if dsigned else "0"
        return (s + f" if (r != r) return 0; if (r >= ({src}){top}) return {hi};"
                f" if (r < ({src}){bottom}) return {lo}; return ({dst})r;")
    # destination is floating point
    if src == dst:
        return "return x;"
    if (src, dst) in (("float", "double"), ("half", "float"),
                      ("half", "double")):
        return f"return ({dst})x;"  # exact
    exact = False
    if src in INTS:
        sbits = INTS[src][0]
        exact = sbits < FLOATS[dst] or (sbits <= 32 and dst == "double") or \
            (sbits <= 16 and dst == "float")
    if exact or rnd in ("", "_rte"):
        return f"return ({dst})x;"
    # Inexact: round to nearest, then step one ulp if that went the wrong way.
    cmp = f"int c = cmp_{dst}_{src}(f, x);"  # sign of f - x
    fix = {"_rtz": "if ((x < 0 && c < 0) || (x > 0 && c > 0)) f = toward_zero_"
                   + dst + "(f);",
           "_rtp": "if (c < 0) f = step_up_" + dst + "(f);",
           "_rtn": "if (c > 0) f = step_down_" + dst + "(f);"}[rnd]
    return f"{dst} f = ({dst})x; {cmp} {fix} return f;"


def helpers():
    out = []
    for d, u in (("float", "uint"), ("double", "ulong"), ("half", "ushort")):
        out.append(f"""
static {d} toward_zero_{d}({d} f) {{ return as_{d}(({u})(as_{u}(f) - 1)); }}
static {d} step_up_{d}({d} f) {{
  return as_{d}(({u})(f >= 0 ? as_{u}(f) + 1 : as_{u}(f) - 1));
}}
static {d} step_down_{d}({d} f) {{
  return as_{d}(({u})(f > 0 ? as_{u}(f) - 1 : as_{u}(f) + 1));
}}""")
    # sign of (f - x), exactly
    out.append("""
static int cmp_float_double(float f, double x) {
  return (double)f < x ? -1 : (double)f > x ? 1 : 0;
}
static int cmp_half_float(half f, float x) {
  return (float)f < x ? -1 : (float)f > x ? 1 : 0;
}
static int cmp_half_double(half f, double x) {
  return (double)f < x ? -1 : (double)f > x ? 1 : 0;
}""")
    # A half is at most 65504 or infinite: compare as float, exact for
    # every integer type's value that matters (any integer beyond 2^24 is
    # beyond every finite half).
    for s in INTS:
        if INTS[s][0] >= 16:
            out.append(f"""
static int cmp_half_{s}(half f, {s} x) {{
  if (f != f) return 0;
  if ((float)f == INFINITY) return 1;
  if ((float)f == -INFINITY) return -1;
  long a = (long)f; // f is an integer here: (half)x of an integer x
  return {"a < 0 ? -1 : (ulong)a < x ? -1 : (ulong)a > x ? 1 : 0" if s == "ulong" else "a < (long)x ? -1 : a > (long)x ? 1 : 0"};
}}""")
    for d in ("float", "double"):
        for s in ("int", "uint"):
            out.append(f"""
static int cmp_{d}_{s}({d} f, {s} x) {{
  double a = (double)f, b = (double)x;
  return a < b ? -1 : a > b ? 1 : 0;
}}""")
        out.append(f"""
static int cmp_{d}_long({d} f, long x) {{
  if (f >= ({d})0x1p63) return 1;
  long a = (long)f; // f is an integer here: |f| >= 2^24 or exact
  return a < x ? -1 : a > x ? 1 : 0;
}}
static int cmp_{d}_ulong({d} f, ulong x) {{
  if (f >= ({d})0x1p64) return 1;
  ulong a = (ulong)f;
  return a < x ? -1 : a > x ? 1 : 0;
}}""")
    return "\n".join(out)


def main():
    lines = ["// Generated by builtins/gen_convert.py: do not edit.",
             '#include "Builtins.h"', helpers()]
    for dst in TYPES:
        for src in TYPES:
            for sat in ("", "_sat"):
                if sat and dst not in INTS:
                    continue
                for rnd in ROUNDINGS:
                    name = f"convert_{dst}{sat}{rnd}"
                    core = f"cv_{dst}_{src}{sat}{rnd}"
                    lines.append(f"static {dst} {core}({src} x) {{ {body(dst, src, sat, rnd)} }}")
                    lines.append(f"CONST {dst} convert_{dst}{sat}{rnd}({src} x) {{ return {core}(x); }}")
                    for n in WIDTHS:
                        lines.append(
                            f"CONST {dst}{n} convert_{dst}{n}{sat}{rnd}({src}{n} x) {{ "
                            f"{dst}{n} r; for (int i = 0; i < {n}; ++i) r[i] = {core}(x[i]); return r; }}")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(lines) + "\n")


main()
