#!/usr/bin/python3
"""Generates numpy_cases.json: expected results of fuseflow array programs,
computed by NumPy, for array/numpy_test.go.

Regenerate (from the repository root, with Debian's python3-numpy installed:
`apt-get install -y python3-numpy`, NumPy 1.24 on Debian 12):

    /usr/bin/python3 array/testdata/gen_numpy.py

The output is deterministic: fixed inputs, no random numbers.

Each case is a small program: a list of steps, each [name, args...], that
this script runs with NumPy and the Go test runs with the array package.
The value a program works on starts as inputs[0], or as the result of its
first step when that step is a constructor (Arange, Linspace, Eye, Full,
Zeros, Ones), or as inputs[k] when the first step is ["Input", k].
Operands of binary steps are {"in": k} (inputs[k]), {"prog": [...]} (a
nested program), or Go numbers: {"int": 2}, {"float": "2.5"},
{"bool": true}, which the Go side passes as Go int, float64 and bool
(weakly typed scalars).

Encoding: floats are strings (Python's repr, exact for float64 and for
float32 values widened to float64; "nan", "inf", "-inf"); ints are JSON
integers; bools are JSON booleans.

Where fuseflow's documented rules differ from NumPy 1.24 the case is either
left out or its expected dtype follows fuseflow, as listed here (the Go
test cites the same documents):

  * Weak scalars: NumPy 1.24 casts Python scalars by value, fuseflow
    follows NEP 50 (graph/promote.go). A scalar case whose NumPy 1.24 dtype
    differs from the graph/promote.go table is not generated; the skipped
    cases are listed under "skipped" in the JSON. The Go test checks the
    whole weak table directly.
  * Floor, Ceil and Trunc of integers keep the integer dtype in fuseflow
    (graph/op.go ruleRounding); NumPy 1.24 returns float64. The values are
    integral, so the expected values are NumPy's in the integer dtype.
  * Reciprocal of integers computes in float64 in fuseflow (graph/op.go
    ruleFloatMath); NumPy does integer reciprocal. Expected: NumPy's
    reciprocal of the float64 conversion.
  * Add, Sub, Mul, FloorDiv, Mod and Pow of two bools, and Neg, Sign,
    Square and the float math of bools, are errors in fuseflow
    (graph/build.go, graph/op.go): not generated (the Go test checks the
    errors).
  * Integer Pow with a negative exponent raises in NumPy and is defined by
    fuseflow (ARRAY_API.md): not generated; checked in the Go test.
  * Float to int casts of NaN, infinities and out-of-range values are
    platform-defined in NumPy: not generated (fuseflow saturates,
    graph/promote.go CastFloatToInt64).
  * Linspace to an integer dtype: NumPy 1.24 truncates, NumPy 2 floors;
    fuseflow floors as NumPy 2 does, and the expected values are
    floor(linspace(...)) computed in float64.
  * Sigmoid, Erf and Rsqrt have no NumPy ufunc: expected values are
    1/(1+exp(-x)), math.erf and 1/sqrt(x), computed in float64 and rounded
    to the dtype.
"""

import json
import math
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")
np.seterr(all="ignore")

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "numpy_cases.json")

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
INTS = ("int32", "int64")
FLOATS = ("float32", "float64")
KIND = {"bool": 1, "int32": 2, "int64": 2, "float32": 3, "float64": 3}

# ---------------------------------------------------------------------------
# fuseflow's dtype rules (graph/promote.go, graph/op.go, graph/build.go),
# used to decide which cases exist and to check NumPy agrees with them.


def promote(a, b):
    if a == b:
        return a
    a, b = sorted((a, b), key=DTYPES.index)
    if a in INTS and b == "float32":
        return "float64"
    return b


def promote_weak(d, kind):
    if kind <= KIND[d]:
        return d
    return "int64" if kind == 2 else "float64"


UNARY_RULE = {
    "Neg": "numeric", "Abs": "any", "Sign": "numeric", "Square": "numeric",
    "Sqrt": "fmath", "Rsqrt": "fmath", "Exp": "fmath", "Exp2": "fmath",
    "Log": "fmath", "Log2": "fmath", "Log1p": "fmath", "Expm1": "fmath",
    "Sin": "fmath", "Cos": "fmath", "Tan": "fmath", "Tanh": "fmath",
    "Sigmoid": "fmath", "Erf": "fmath", "Reciprocal": "fmath",
    "Floor": "rounding", "Ceil": "rounding", "Round": "rounding", "Trunc": "rounding",
    "IsNaN": "pred", "IsInf": "pred", "Not": "logical",
}
BINARY_RULE = {
    "Add": "numeric", "Sub": "numeric", "Mul": "numeric", "Div": "div",
    "FloorDiv": "numeric", "Mod": "numeric", "Pow": "numeric",
    "Maximum": "any", "Minimum": "any", "Atan2": "fmath",
    "Eq": "cmp", "Ne": "cmp", "Lt": "cmp", "Le": "cmp", "Gt": "cmp", "Ge": "cmp",
    "And": "logical", "Or": "logical", "Xor": "logical",
}
NO_BOOL_ARITH = {"Add", "Sub", "Mul", "FloorDiv", "Mod", "Pow"}


def rule_dtype(rule, d):
    """Result dtype of an elementwise rule for operand dtype d, None if an error."""
    if rule == "fmath":
        return d if d in FLOATS else ("float64" if d in INTS else None)
    if rule in ("numeric", "rounding"):
        return None if d == "bool" else d
    if rule == "any":
        return d
    if rule in ("pred", "cmp"):
        return "bool"
    if rule == "logical":
        return None if d in FLOATS else d
    if rule == "div":
        return d if d in FLOATS else "float64"
    raise ValueError(rule)


def ff_binary(op, a, b):
    p = promote(a, b)
    if op in NO_BOOL_ARITH and p == "bool":
        return None
    return rule_dtype(BINARY_RULE[op], p)


def ff_reduce(op, d):
    if op in ("Sum", "Prod"):
        return "int64" if d in ("bool", "int32") else d
    if op in ("Mean", "Var", "Std"):
        return d if d in FLOATS else "float64"
    if op in ("ArgMax", "ArgMin"):
        return "int64"
    if op in ("Any", "All"):
        return "bool"
    return d


# ---------------------------------------------------------------------------
# The program interpreter (NumPy side). The Go test implements the same
# steps with the array package.


def f64(x):
    return np.asarray(x, dtype=np.float64)


def via_f64(fn):
    """fn computed in float64 and rounded to the float dtype (ints: float64)."""
    def run(x):
        d = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
        return np.asarray(fn(f64(x))).astype(d)
    return run


def np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def np_erf(x):
    return np.array([math.erf(v) for v in x.ravel()], dtype=np.float64).reshape(x.shape)


def np_floatmath(fn):
    # NumPy's own float32 implementation for float32; ints in the float
    # NumPy's float math picks for them (graph/op.go FloatFor: float16 for
    # int8 and uint8, float32 for int16 and uint16, float64 for the
    # others), which Reciprocal of ints uses too.
    def run(x):
        if x.dtype.kind in "iu":
            x = x.astype(np.result_type(x.dtype, np.float16))
        return fn(x)
    return run


UNARY_NP = {
    "Neg": np.negative, "Abs": np.abs, "Sign": np.sign, "Square": np.square,
    "Sqrt": np_floatmath(np.sqrt), "Rsqrt": via_f64(lambda x: 1.0 / np.sqrt(x)),
    "Exp": np_floatmath(np.exp), "Exp2": np_floatmath(np.exp2),
    "Log": np_floatmath(np.log), "Log2": np_floatmath(np.log2),
    "Log1p": np_floatmath(np.log1p), "Expm1": np_floatmath(np.expm1),
    "Sin": np_floatmath(np.sin), "Cos": np_floatmath(np.cos), "Tan": np_floatmath(np.tan),
    "Tanh": np_floatmath(np.tanh), "Sigmoid": via_f64(np_sigmoid), "Erf": via_f64(np_erf),
    # Deviation: ints keep their dtype (graph/op.go ruleRounding).
    "Floor": lambda x: np.floor(x).astype(x.dtype), "Ceil": lambda x: np.ceil(x).astype(x.dtype),
    "Trunc": lambda x: np.trunc(x).astype(x.dtype), "Round": np.round,
    # Deviation: ints compute in float64 (graph/op.go ruleFloatMath).
    "Reciprocal": np_floatmath(np.reciprocal),
    "IsNaN": np.isnan, "IsInf": np.isinf,
    "Not": lambda x: np.logical_not(x) if x.dtype == np.bool_ else np.invert(x),
}
BINARY_NP = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.true_divide,
    "FloorDiv": np.floor_divide, "Mod": np.mod, "Pow": np.power,
    "Maximum": np.maximum, "Minimum": np.minimum, "Atan2": np.arctan2,
    "Eq": np.equal, "Ne": np.not_equal, "Lt": np.less, "Le": np.less_equal,
    "Gt": np.greater, "Ge": np.greater_equal,
    "And": np.bitwise_and, "Or": np.bitwise_or, "Xor": np.bitwise_xor,
}
REDUCE_NP = {
    "Sum": np.sum, "Prod": np.prod, "Mean": np.mean, "Max": np.max, "Min": np.min,
    "Any": np.any, "All": np.all,
}
CONSTRUCTORS = {"Arange", "Linspace", "Eye", "Full", "Zeros", "Ones"}


def decode_array(a):
    d = a["dtype"]
    if d.startswith("float"):
        vals = [float(v) for v in a["data"]]
    else:
        vals = a["data"]
    return np.array(vals, dtype=d).reshape(a["shape"])


def operand(o, inputs):
    if "in" in o:
        return inputs[o["in"]]
    if "prog" in o:
        return run_prog(o["prog"], inputs)
    if "int" in o:
        return int(o["int"])
    if "float" in o:
        return float(o["float"])
    if "bool" in o:
        return bool(o["bool"])
    raise ValueError(o)


def py_slice(r):
    start, stop, step = r
    return slice(start, stop, step)


def run_prog(prog, inputs):
    x = None
    steps = list(prog)
    if steps[0][0] == "Input":
        x = inputs[steps[0][1]]
        steps = steps[1:]
    elif steps[0][0] in CONSTRUCTORS:
        x = construct(steps[0])
        steps = steps[1:]
    else:
        x = inputs[0]
    for st in steps:
        x = step(x, st, inputs)
    return x


def construct(st):
    name, args = st[0], st[1:]
    if name == "Arange":
        start, stop, stp, d = args
        return np.arange(start, stop, stp, dtype=d)
    if name == "Linspace":
        start, stop, n, d = args
        if d in INTS:
            # NumPy 2 rounds toward minus infinity (1.24 truncates).
            return np.floor(np.linspace(start, stop, n)).astype(d)
        return np.linspace(start, stop, n, dtype=d)
    if name == "Eye":
        n, m, k, d = args
        return np.eye(n, m, k=k, dtype=d)
    if name == "Full":
        d, v, shape = args
        if isinstance(v, int):  # an exact integer, not through float64
            return np.full(shape, v, dtype=d)
        return np.full(shape, float(v), dtype=d)
    if name == "Zeros":
        return np.zeros(args[1], dtype=args[0])
    if name == "Ones":
        return np.ones(args[1], dtype=args[0])
    raise ValueError(name)


def step(x, st, inputs):
    name, args = st[0], st[1:]
    if name in REARRANGE_NP:
        return np.asarray(REARRANGE_NP[name](x, args, inputs))
    if name in UNARY_NP:
        return np.asarray(UNARY_NP[name](x))
    if name == "AsType":
        return x.astype(args[0])
    if name in BINARY_NP:
        return np.asarray(BINARY_NP[name](x, operand(args[0], inputs)))
    if name == "Where":
        return np.where(x, operand(args[0], inputs), operand(args[1], inputs))
    if name == "Clip":
        return np.clip(x, operand(args[0], inputs), operand(args[1], inputs))
    if name == "Reshape":
        return x.reshape(args[0])
    if name == "Transpose":
        return x.T
    if name == "Permute":
        return np.transpose(x, args[0])
    if name == "BroadcastTo":
        return np.broadcast_to(x, args[0])
    if name == "Slice":
        return x[tuple(py_slice(r) for r in args[0])]
    if name == "ExpandDims":
        return np.expand_dims(x, args[0])
    if name == "Squeeze":
        return np.squeeze(x, axis=tuple(args[0])) if args[0] else np.squeeze(x)
    if name == "Flatten":
        return x.flatten()
    if name == "Contiguous":
        return np.ascontiguousarray(x)
    if name == "Concat":
        return np.concatenate([x] + [operand(o, inputs) for o in args[1]], axis=args[0])
    if name == "Stack":
        return np.stack([x] + [operand(o, inputs) for o in args[1]], axis=args[0])
    if name in REDUCE_NP:
        axes, keep = args
        ax = None if axes is None else tuple(axes)
        return np.asarray(REDUCE_NP[name](x, axis=ax, keepdims=keep))
    if name in ("Var", "Std"):
        ddof, axes, keep = args
        ax = None if axes is None else tuple(axes)
        fn = np.var if name == "Var" else np.std
        return np.asarray(fn(x, axis=ax, ddof=ddof, keepdims=keep))
    if name in ("ArgMax", "ArgMin"):
        fn = np.argmax if name == "ArgMax" else np.argmin
        return np.asarray(fn(x, axis=args[0]))
    if name == "MatMul":
        return np.matmul(x, operand(args[0], inputs))
    if name in SCAN_NP:
        if args[0] is None:
            return SCAN_NP[name](x.ravel(), 0)
        return SCAN_NP[name](x, args[0])
    if name in INDEX_STEPS:
        return INDEX_STEPS[name](x, args, inputs)
    if name in SORT_STEPS:
        return SORT_STEPS[name](x, *args)
    raise ValueError(name)


# ---------------------------------------------------------------------------
# Encoding.


def enc_value(v, d):
    if d.startswith("float"):
        return repr(float(v))
    if d == "bool":
        return bool(v)
    return int(v)


def enc(a):
    a = np.asarray(a)
    d = str(a.dtype)
    return {"dtype": d, "shape": list(a.shape), "data": [enc_value(v, d) for v in a.ravel()]}


def arr(values, dtype, shape=None):
    a = np.array(values, dtype=dtype)
    if shape is not None:
        a = a.reshape(shape)
    return a


CASES = []
SKIPPED = []
NAMES = set()


def add_case(name, inputs, prog, want_dtype=None):
    """Runs prog on inputs with NumPy and records the case. want_dtype is
    fuseflow's documented result dtype: NumPy must agree."""
    if name in NAMES:
        raise ValueError("duplicate case " + name)
    NAMES.add(name)
    want = np.asarray(run_prog(prog, inputs))
    if want_dtype is not None and str(want.dtype) != want_dtype:
        raise SystemExit("%s: NumPy gives %s, fuseflow documents %s" % (name, want.dtype, want_dtype))
    CASES.append({"name": name, "inputs": [enc(a) for a in inputs], "prog": prog, "want": enc(want)})


def shp(s):
    return "(" + ",".join(str(e) for e in s) + ("," if len(s) == 1 else "") + ")"


# ---------------------------------------------------------------------------
# Unary ops.

UNARY_VALUES = {
    "bool": [True, False, True],
    "int32": [-7, -2, -1, 0, 1, 2, 3, 100, 46341, -2147483647, 2147483647],
    "int64": [-7, -2, -1, 0, 1, 2, 3, 100, 3037000500, -(2 ** 62), 2 ** 62],
    "float32": [-3.0, -2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 3.0, 10.0,
                0.1, -7.25, 1e-30, 3.0e38, float("nan"), float("inf"), float("-inf")],
}
UNARY_VALUES["float64"] = UNARY_VALUES["float32"][:-3] + [
    0.49999999999999994, 4503599627370497.0, -1e300, 1e-310,
    float("nan"), float("inf"), float("-inf")]
# Float math of ints: small values so the float64 results stay modest.
FMATH_INT_VALUES = [-7, -2, -1, 0, 1, 2, 3, 100]


def gen_unary():
    for op, rule in UNARY_RULE.items():
        for d in DTYPES:
            out = rule_dtype(rule, d)
            if out is None:
                continue
            vals = UNARY_VALUES[d]
            if rule == "fmath" and d in INTS:
                vals = FMATH_INT_VALUES
            if op in ("Neg", "Abs") and d in INTS:
                vals = [v for v in vals if v not in (-(2 ** 62),)]
            if op == "Square" and d == "int64":
                vals = [v for v in vals if abs(v) < 2 ** 40]
            x = arr(vals, d)
            add_case("unary/%s/%s" % (op, d), [x], [[op]], out)
        # a 2-d strided input through the same op
    x = arr(np.arange(-6, 6) * 0.75, "float32", (3, 4))
    for op in ("Exp", "Sin", "Round", "Abs", "Sqrt"):
        add_case("unary/%s/float32/transposed" % op, [x], [["Transpose"], [op]], "float32")


# ---------------------------------------------------------------------------
# Binary ops over every dtype pair, with broadcasting.

BIN_A = {
    "bool": [True, False, True, True, False, False],
    "int32": [-7, -1, 0, 2, 5, 9],
    "int64": [-7, -1, 0, 2, 5, 3_000_000_000],
    "float32": [-2.5, -0.0, 0.5, 3.0, float("nan"), float("inf")],
    "float64": [-2.5, -0.0, 0.5, 3.0, float("nan"), float("inf")],
}
BIN_B = {
    "bool": [True, False, True, False, True],
    "int32": [-3, 0, 1, 2, 4],
    "int64": [-3, 0, 1, 2, 4],
    "float32": [-1.5, 0.0, 2.0, 0.75, float("-inf")],
    "float64": [-1.5, 0.0, 2.0, 0.75, float("-inf")],
}
# Pow: non-negative integer exponents, small enough not to overflow int32.
POW_B_INT = [0, 1, 2, 3, 5]
POW_A_INT = [-7, -1, 0, 2, 5, 9]


def gen_binary():
    for op in BINARY_RULE:
        for da in DTYPES:
            for db in DTYPES:
                out = ff_binary(op, da, db)
                if out is None:
                    continue
                p = promote(da, db)
                va, vb = BIN_A[da], BIN_B[db]
                if op == "Pow" and p in INTS + ("bool",):
                    va = POW_A_INT if da != "bool" else va
                    vb = POW_B_INT if db != "bool" else vb
                if op in ("Mul", "Pow") and p in INTS and da == "int64":
                    va = POW_A_INT
                a = arr(va, da, (6, 1))
                b = arr(vb, db, (5,))
                add_case("binary/%s/%s,%s/(6,1)x(5,)" % (op, da, db), [a, b], [[op, {"in": 1}]], out)
        # Rank-3 broadcasting on both sides.
        for d in ("int32", "float64"):
            out = ff_binary(op, d, d)
            if out is None:
                continue
            a = arr(np.arange(1, 7) * (1 if d in INTS else 0.5) - 2, d, (2, 1, 3))
            b = arr([3, -1, 2, 1] if op != "Pow" else [0, 1, 2, 3], d, (1, 4, 1))
            add_case("binary/%s/%s/(2,1,3)x(1,4,1)" % (op, d), [a, b], [[op, {"in": 1}]], out)


def gen_special_binary():
    # Integer FloorDiv and Mod by zero: NumPy gives 0 (with a warning), as
    # fuseflow defines (graph/op.go).
    for d in INTS:
        a = arr([7, -7, 0, 1, -1, 13], d)
        b = arr([0, 0, 0, 0, 0, 0], d)
        assert np.all(np.floor_divide(a, b) == 0) and np.all(np.mod(a, b) == 0)
        add_case("special/FloorDiv/%s/by-zero" % d, [a, b], [["FloorDiv", {"in": 1}]], d)
        add_case("special/Mod/%s/by-zero" % d, [a, b], [["Mod", {"in": 1}]], d)
        a = arr([7, -7, 7, -7, 6, -6], d)
        b = arr([2, 2, -2, -2, 3, -3], d)
        add_case("special/FloorDiv/%s/signs" % d, [a, b], [["FloorDiv", {"in": 1}]], d)
        add_case("special/Mod/%s/signs" % d, [a, b], [["Mod", {"in": 1}]], d)
    # Float FloorDiv and Mod where floor(a/b) is not NumPy's answer: NumPy
    # (like Python) computes them from fmod, so 1.0 // 0.1 == 9.0.
    for d in FLOATS:
        a = arr([1.0, -1.0, 1.0, 5.5, -5.5, 0.7, 1.0, -1.0, 0.0], d)
        b = arr([0.1, 0.1, -0.1, 1.1, 1.1, 0.1, 0.0, 0.0, 0.0], d)
        add_case("special/FloorDiv/%s/inexact" % d, [a, b], [["FloorDiv", {"in": 1}]], d)
        add_case("special/Mod/%s/inexact" % d, [a, b], [["Mod", {"in": 1}]], d)
        a = arr([7.5, -7.5, 7.5, -7.5, -0.0, 3.0], d)
        b = arr([2.0, 2.0, -2.0, -2.0, 2.0, float("inf")], d)
        add_case("special/FloorDiv/%s/signs" % d, [a, b], [["FloorDiv", {"in": 1}]], d)
        add_case("special/Mod/%s/signs" % d, [a, b], [["Mod", {"in": 1}]], d)
    # Maximum and Minimum propagate NaN from either side.
    for d in FLOATS:
        a = arr([float("nan"), 1.0, float("nan"), -0.0, float("inf")], d)
        b = arr([1.0, float("nan"), float("nan"), 0.0, float("-inf")], d)
        for op in ("Maximum", "Minimum"):
            add_case("special/%s/%s/nan" % (op, d), [a, b], [[op, {"in": 1}]], d)
    # Atan2 quadrants, zeros and infinities.
    for d in FLOATS:
        a = arr([1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 0.0, float("inf"), float("-inf"), 1.0], d)
        b = arr([1.0, -1.0, 1.0, -1.0, 0.0, 0.0, -1.0, float("inf"), 2.0, float("-inf")], d)
        add_case("special/Atan2/%s/quadrants" % d, [a, b], [["Atan2", {"in": 1}]], d)
    # Pow special values.
    for d in FLOATS:
        a = arr([0.0, 0.0, -2.0, -2.0, 1.0, float("nan"), 2.0, 0.5, float("inf"), -8.0], d)
        b = arr([0.0, -1.0, 3.0, 0.5, float("nan"), 0.0, -2.0, float("inf"), -1.0, 1.0 / 3.0], d)
        add_case("special/Pow/%s/values" % d, [a, b], [["Pow", {"in": 1}]], d)
    # Integer wrap-around, as NumPy (two's complement).
    a = arr([2147483647, -2147483648, 65536], "int32")
    b = arr([1, -1, 65536], "int32")
    add_case("special/Add/int32/wrap", [a, b], [["Add", {"in": 1}]], "int32")
    add_case("special/Sub/int32/wrap", [a, b], [["Sub", {"in": 1}]], "int32")
    add_case("special/Mul/int32/wrap", [a, b], [["Mul", {"in": 1}]], "int32")
    # Bitwise ops on negative ints.
    for d in INTS:
        a = arr([-1, -8, 12, 0, 2 ** 30], d)
        b = arr([5, 3, -4, -1, 2 ** 30 + 1], d)
        for op in ("And", "Or", "Xor"):
            add_case("special/%s/%s/negative" % (op, d), [a, b], [[op, {"in": 1}]], d)
    # Comparisons with NaN and signed zeros.
    for d in FLOATS:
        a = arr([float("nan"), 1.0, -0.0, float("inf"), float("nan")], d)
        b = arr([float("nan"), float("nan"), 0.0, float("inf"), 1.0], d)
        for op in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge"):
            add_case("special/%s/%s/nan" % (op, d), [a, b], [[op, {"in": 1}]], "bool")
    # int64 against float64: compared after promotion to float64.
    a = arr([2 ** 53 + 1, 3, -5], "int64")
    b = arr([float(2 ** 53), 3.0, -5.5], "float64")
    add_case("special/Eq/int64,float64/rounding", [a, b], [["Eq", {"in": 1}]], "bool")


# ---------------------------------------------------------------------------
# Binary ops with Go numbers (weak scalars).

WEAK_SCALARS = [{"int": 2}, {"int": -3}, {"int": 0}, {"float": "2.5"}, {"float": "-0.5"},
                {"bool": True}, {"int": 1 << 40}, {"float": "1e+300"}]
WEAK_OPS = ["Add", "Sub", "Mul", "Div", "FloorDiv", "Mod", "Pow", "Maximum", "Minimum",
            "Atan2", "Eq", "Lt", "Ge", "And", "Or", "Xor"]
WEAK_KIND = {"bool": 1, "int": 2, "float": 3}


def gen_weak():
    for d in DTYPES:
        for op in WEAK_OPS:
            for s in WEAK_SCALARS:
                (k, v), = s.items()
                label = "%s=%s" % (k, v)
                pd = promote_weak(d, WEAK_KIND[k])
                if k == "int" and pd == "int32" and not (-2 ** 31 <= v < 2 ** 31):
                    continue  # an error in fuseflow (graph/promote.go Weak.Value)
                out = ff_binary(op, pd, pd)
                if out is None:
                    continue
                if op == "Pow" and pd in INTS and k == "int" and v < 0:
                    continue  # NumPy raises; fuseflow defines it (ARRAY_API.md)
                if op == "Pow" and k == "int" and v > 2:
                    continue  # overflow
                if op in ("Mul",) and k == "int" and v > 2 ** 20 and pd in INTS:
                    continue  # overflow
                x = arr(BIN_A[d] if op != "Pow" or pd not in INTS else POW_A_INT, d)
                name = "weak/%s/%s/%s" % (op, d, label)
                # NumPy 1.24 computes in result_type(x, scalar), which depends
                # on the scalar's value; fuseflow computes in pd (NEP 50).
                computed = np.result_type(x, operand(s, []))
                if str(computed) != pd:
                    SKIPPED.append("%s: NumPy 1.24 computes in %s by value-based casting, fuseflow in %s"
                                   % (name, computed, pd))
                    continue
                add_case(name, [x], [[op, s]], out)


# ---------------------------------------------------------------------------
# Where, Clip, AsType.


def gen_where_clip():
    cond = arr([True, False, True, False, False, True], "bool", (2, 3))
    for da in DTYPES:
        for db in DTYPES:
            x = arr(BIN_A[da], da, (2, 3))
            y = arr(BIN_B[db][:3], db, (3,))
            add_case("where/%s,%s" % (da, db), [cond, x, y], [["Where", {"in": 1}, {"in": 2}]],
                     promote(da, db))
    c3 = arr([True, False], "bool", (2, 1, 1))
    x3 = arr(np.arange(3), "float32", (3, 1))
    y3 = arr(np.arange(4) * -1.5, "float32", (4,))
    add_case("where/broadcast3/float32", [c3, x3, y3], [["Where", {"in": 1}, {"in": 2}]], "float32")
    x = arr([1.5, -2.0, 3.25], "float32")
    add_case("where/weak/float32,float", [arr([True, False, True], "bool"), x],
             [["Where", {"in": 1}, {"float": "0.5"}]], "float32")
    xi = arr([4, -2, 9], "int32")
    add_case("where/weak/int32,int", [arr([True, False, False], "bool"), xi],
             [["Where", {"in": 1}, {"int": 7}]], "int32")

    for d in ("int32", "int64", "float32", "float64"):
        x = arr(BIN_A[d] + [1, -1], d, (2, 4))
        add_case("clip/%s/int" % d, [x], [["Clip", {"int": -1}, {"int": 3}]], d)
        out = d if d in FLOATS else "float64"
        add_case("clip/%s/float" % d, [x], [["Clip", {"float": "-0.5"}, {"float": "2.5"}]], out)
        lo = arr([-1, 0, 1, 2], d)
        hi = arr([[0], [4]], d)
        add_case("clip/%s/arrays" % d, [x, lo, hi], [["Clip", {"in": 1}, {"in": 2}]], d)
        add_case("clip/%s/lo-above-hi" % d, [x], [["Clip", {"int": 3}, {"int": 1}]], d)


CAST_VALUES = {
    "bool": [True, False],
    "int32": [-2147483648, -5, -1, 0, 1, 7, 16777217, 2147483647],
    "int64": [-2 ** 63, -2 ** 40 - 1, -2 ** 31 - 1, -1, 0, 1, 2 ** 31, 2 ** 53 + 1,
              2 ** 60 + 2 ** 36 + 1, 2 ** 63 - 1],
    "float32": [-3.75, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 0.1, 16777216.0, 1e10, -1e10,
                3.4e38, 1e-45, float("nan"), float("inf"), float("-inf")],
    "float64": [-3.75, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 0.1, 16777217.0, 1e10, -1e10,
                2147483647.9, -2147483648.9, 1e300, -1e300, 1e-320, 3.4028235677973366e38,
                1.0000000596046448, float("nan"), float("inf"), float("-inf")],
}
INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}


def gen_astype():
    for src in DTYPES:
        for dst in DTYPES:
            vals = CAST_VALUES[src]
            if src in FLOATS and dst in INTS:
                lo, hi = INT_RANGE[dst]
                # Platform-defined in NumPy: NaN, infinities, out of range.
                vals = [v for v in vals if math.isfinite(v) and lo <= math.trunc(v) <= hi
                        and abs(v) < 9.2e18]
                vals = [v for v in vals if lo <= math.trunc(float(np.array(v, src))) <= hi]
            x = arr(vals, src)
            add_case("astype/%s->%s" % (src, dst), [x], [["AsType", dst]], dst)


# ---------------------------------------------------------------------------
# Views and materializing ops.


def gen_views():
    x = arr(np.arange(24), "int32", (2, 3, 4))
    f = arr(np.arange(24) * 0.5 - 3, "float64", (2, 3, 4))
    b = arr(np.arange(24) % 3 == 0, "bool", (2, 3, 4))
    views = {
        "reshape-4x6": [["Reshape", [4, 6]]],
        "reshape-infer": [["Reshape", [-1, 8]]],
        "reshape-1d": [["Reshape", [24]]],
        "transpose": [["Transpose"]],
        "permute-201": [["Permute", [2, 0, 1]]],
        "permute-neg": [["Permute", [-1, 0, -2]]],
        "slice-steps": [["Slice", [[None, None, 2], [1, None, None], [None, None, 3]]]],
        "slice-negative-steps": [["Slice", [[None, None, -1], [None, None, -2], [3, 0, -2]]]],
        "slice-negative-bounds": [["Slice", [[-1, None, None], [-3, -1, None], [-100, 100, 2]]]],
        "slice-empty": [["Slice", [[None, None, None], [2, 1, None]]]],
        "slice-partial": [["Slice", [[1, 2, None]]]],
        "expand-dims-0": [["ExpandDims", 0]],
        "expand-dims-last": [["ExpandDims", -1]],
        "expand-dims-mid": [["ExpandDims", 2]],
        "flatten": [["Flatten"]],
        "broadcast-to": [["Slice", [[None, None, None], [0, 1, None]]], ["BroadcastTo", [3, 2, 3, 4]]],
        "squeeze-all": [["Slice", [[0, 1, None], [None, None, None], [2, 3, None]]], ["Squeeze", []]],
        "squeeze-axis": [["Slice", [[0, 1, None], [None, None, None], [2, 3, None]]], ["Squeeze", [2]]],
        "contiguous": [["Transpose"], ["Contiguous"]],
        # Compositions: slice with steps, then transpose, then reshape
        # (NumPy copies there; fuseflow's result must hold the same values).
        "compose-slice-transpose-reshape": [
            ["Slice", [[None, None, None], [None, None, 2], [None, None, -1]]],
            ["Transpose"], ["Reshape", [2, 8]]],
        "compose-permute-slice-flatten": [
            ["Permute", [1, 2, 0]], ["Slice", [[None, None, -1], [1, None, 2]]], ["Flatten"]],
        "compose-reshape-slice-transpose": [
            ["Reshape", [6, 4]], ["Slice", [[5, 0, -2], [None, None, 3]]], ["Transpose"],
            ["Reshape", [-1]]],
        "compose-broadcast-slice": [
            ["ExpandDims", 0], ["BroadcastTo", [2, 2, 3, 4]], ["Slice", [[None, None, None],
                                                                          [None, None, -1],
                                                                          [None, None, 2]]],
            ["Permute", [3, 1, 0, 2]]],
        "compose-transpose-twice": [["Transpose"], ["Slice", [[None, None, 2]]], ["Transpose"]],
    }
    for name, prog in views.items():
        add_case("view/%s/int32" % name, [x], prog, "int32")
    for name in ("transpose", "slice-negative-steps", "compose-slice-transpose-reshape",
                 "broadcast-to", "squeeze-all"):
        add_case("view/%s/float64" % name, [f], views[name], "float64")
        add_case("view/%s/bool" % name, [b], views[name], "bool")
    # Views of a 0-d and a 1-d array.
    s = arr(5.5, "float32")
    add_case("view/0d-reshape/float32", [s], [["Reshape", [1, 1]]], "float32")
    add_case("view/0d-broadcast/float32", [s], [["BroadcastTo", [2, 3]]], "float32")
    add_case("view/0d-expand/float32", [s], [["ExpandDims", 0]], "float32")
    v = arr(np.arange(10), "int64")
    add_case("view/1d-reverse/int64", [v], [["Slice", [[None, None, -1]]]], "int64")
    add_case("view/1d-step3-from-end/int64", [v], [["Slice", [[-1, None, -3]]]], "int64")
    add_case("view/1d-slice-reshape/int64", [v], [["Slice", [[1, 9, None]]], ["Reshape", [2, 2, 2]],
                                                  ["Permute", [1, 0, 2]]], "int64")

    # Concat and Stack, with promotion.
    a = arr(np.arange(6), "int32", (2, 3))
    c = arr(np.arange(6, 12), "int32", (2, 3))
    g = arr(np.arange(3) * 0.5, "float32", (1, 3))
    h = arr([[1.5], [2.5]], "float32")
    add_case("concat/axis0/int32", [a, c], [["Concat", 0, [{"in": 1}]]], "int32")
    add_case("concat/axis1/int32", [a, c], [["Concat", 1, [{"in": 1}]]], "int32")
    add_case("concat/axis-neg/int32", [a, c], [["Concat", -1, [{"in": 1}, {"in": 0}]]], "int32")
    add_case("concat/axis0/int32,float32", [a, g], [["Concat", 0, [{"in": 1}]]], "float64")
    add_case("concat/axis1/float32", [h, h], [["Concat", 1, [{"in": 1}]]], "float32")
    add_case("concat/views/int32", [a, c],
             [["Transpose"], ["Concat", 0, [{"prog": [["Input", 1], ["Slice", [[None, None, -1]]],
                                                     ["Transpose"]]}]]], "int32")
    add_case("stack/axis0/int32", [a, c], [["Stack", 0, [{"in": 1}]]], "int32")
    add_case("stack/axis1/int32", [a, c], [["Stack", 1, [{"in": 1}]]], "int32")
    add_case("stack/axis-last/int32", [a, c], [["Stack", -1, [{"in": 1}, {"in": 0}]]], "int32")
    add_case("stack/int32,float32", [a, arr(np.arange(6) * 0.25, "float32", (2, 3))],
             [["Stack", 0, [{"in": 1}]]], "float64")
    bb = arr([True, False, True], "bool")
    add_case("stack/bool", [bb, bb], [["Stack", 0, [{"in": 1}]]], "bool")


# ---------------------------------------------------------------------------
# Reductions.

RED_AXES = [None, [0], [1], [2], [-1], [0, 2], [1, 2], [0, 1, 2]]


def red_input(d):
    """The (2, 3, 4) input of the reduction, scan and sort cases."""
    base = np.array([3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8,
                     9, -7, 9, 3, 2, -3, 8, 4, -6, 2, 6, 4])
    if d == "bool":
        return arr(base > 2, d, (2, 3, 4))
    if d in FLOATS:
        return arr(base * 0.75 + 0.125, d, (2, 3, 4))
    return arr(base, d, (2, 3, 4))


def prod_input(d):
    """Small factors, so that products of 24 stay exact in every dtype."""
    base = np.array([1, -2, 1, 1, 2, -1, 1, 1, -1, 2, 1, 1,
                     1, 1, -2, 1, 1, 1, 2, -1, 1, 1, 1, 2])
    if d == "bool":
        return arr(base > 0, d, (2, 3, 4))
    if d in FLOATS:
        return arr(base * 1.25, d, (2, 3, 4))
    return arr(base, d, (2, 3, 4))


def gen_reductions():
    for d in DTYPES:
        x = red_input(d)
        for op in ("Sum", "Prod", "Mean", "Max", "Min", "Any", "All"):
            xx = prod_input(d) if op == "Prod" else x
            for axes in RED_AXES:
                for keep in (False, True):
                    if keep and axes in ([1], [-1], [0, 1, 2]):
                        continue
                    label = "all" if axes is None else ",".join(map(str, axes))
                    name = "reduce/%s/%s/axes=%s%s" % (op, d, label, "/keepdims" if keep else "")
                    add_case(name, [xx], [[op, axes, keep]], ff_reduce(op, d))
        for op in ("ArgMax", "ArgMin"):
            for axis in (None, 0, 1, 2, -1):
                add_case("reduce/%s/%s/axis=%s" % (op, d, axis), [x], [[op, axis]], "int64")
        if d == "bool":
            continue
        for op in ("Var", "Std"):
            for ddof in (0, 1):
                for axes in (None, [0], [2], [0, 2]):
                    for keep in (False, True):
                        label = "all" if axes is None else ",".join(map(str, axes))
                        name = "reduce/%s/%s/ddof=%d/axes=%s%s" % (op, d, ddof, label,
                                                                   "/keepdims" if keep else "")
                        add_case(name, [x], [[op, ddof, axes, keep]], ff_reduce(op, d))
    # NaN: Max, Min, Sum propagate it; ArgMax and ArgMin give the first NaN.
    for d in FLOATS:
        x = arr([[1.0, float("nan"), 3.0, float("nan")], [2.0, -1.0, 0.5, 4.0],
                 [float("inf"), 0.0, float("nan"), float("-inf")]], d)
        for op in ("Max", "Min", "Sum", "Mean", "Any", "All"):
            for axes in (None, [0], [1]):
                label = "all" if axes is None else ",".join(map(str, axes))
                add_case("reduce-nan/%s/%s/axes=%s" % (op, d, label), [x], [[op, axes, False]],
                         ff_reduce(op, d))
        for op in ("ArgMax", "ArgMin"):
            for axis in (None, 0, 1):
                add_case("reduce-nan/%s/%s/axis=%s" % (op, d, axis), [x], [[op, axis]], "int64")
        add_case("reduce-nan/Var/%s" % d, [x], [["Var", 0, [1], False]], d)
    # Ties: the first index wins.
    t = arr([[2, 7, 7, 1], [3, 3, 3, 3], [-1, -5, -5, 0]], "int32")
    for op in ("ArgMax", "ArgMin"):
        for axis in (None, 0, 1):
            add_case("reduce-ties/%s/int32/axis=%s" % (op, axis), [t], [[op, axis]], "int64")
    # Empty selections: identities.
    e = arr(np.zeros((0, 3)), "float64", (0, 3))
    for op in ("Sum", "Prod", "Any", "All"):
        add_case("reduce-empty/%s/float64/axes=0" % op, [e], [[op, [0], False]], ff_reduce(op, "float64"))
        add_case("reduce-empty/%s/float64/axes=1" % op, [e], [[op, [1], False]], ff_reduce(op, "float64"))
    ei = arr(np.zeros((0, 3)), "int32", (0, 3))
    add_case("reduce-empty/Sum/int32/axes=all", [ei], [["Sum", None, False]], "int64")
    # 0-d input.
    z = arr(2.5, "float32")
    add_case("reduce-0d/Sum/float32", [z], [["Sum", None, False]], "float32")
    add_case("reduce-0d/Max/float32", [z], [["Max", None, False]], "float32")
    # A longer float32 sum (NumPy: pairwise float32; fuseflow: float64 accumulation).
    long32 = arr(np.arange(1000) * 0.1 + 0.01, "float32", (10, 100))
    for op, axes in (("Sum", None), ("Sum", [1]), ("Mean", [0]), ("Var", None), ("Std", [1])):
        prog = [[op, axes, False]] if op not in ("Var", "Std") else [[op, 0, axes, False]]
        add_case("reduce-long/%s/float32/axes=%s" % (op, axes), [long32], prog, "float32")
    # Reductions of views.
    v = red_input("float64")
    add_case("reduce-view/Sum/float64/transposed", [v], [["Transpose"], ["Sum", [0], False]], "float64")
    add_case("reduce-view/Max/float64/sliced", [v],
             [["Slice", [[None, None, -1], [None, None, 2]]], ["Max", [1, 2], True]], "float64")
    add_case("reduce-view/Sum/int32/broadcast", [red_input("int32")],
             [["ExpandDims", 0], ["BroadcastTo", [3, 2, 3, 4]], ["Sum", [0, 3], False]], "int64")


# ---------------------------------------------------------------------------
# Scans: ["CumSum", axis] (axis None: the flattened array, as np.cumsum
# with axis=None; the Go side calls CumSumFlat).

SCAN_NP = {
    "CumSum": lambda x, ax: np.cumsum(x, axis=ax),
    "CumProd": lambda x, ax: np.cumprod(x, axis=ax),
    "CumMax": lambda x, ax: np.maximum.accumulate(x, axis=ax),
    "CumMin": lambda x, ax: np.minimum.accumulate(x, axis=ax),
}


def ff_scan(op, d):
    if op in ("CumSum", "CumProd") and d in ("bool", "int32"):
        return "int64"
    return d


def gen_scans():
    for d in DTYPES:
        for op in SCAN_NP:
            x = prod_input(d) if op == "CumProd" else red_input(d)
            for axis in (None, 0, 1, 2, -1, -3):
                add_case("scan/%s/%s/axis=%s" % (op, d, axis), [x], [[op, axis]], ff_scan(op, d))
    # NaN propagates from its first position on, in every scan.
    for d in FLOATS:
        x = arr([[1.0, float("nan"), 3.0, -2.0], [2.0, -1.0, 0.5, 4.0],
                 [float("inf"), 0.0, float("nan"), float("-inf")]], d)
        for op in SCAN_NP:
            for axis in (0, 1):
                add_case("scan-nan/%s/%s/axis=%d" % (op, d, axis), [x], [[op, axis]], d)
        # -0 and +0 ties keep the running value, as np.maximum does.
        z = arr([-0.0, 0.0, -0.0, 1.0], d)
        for op in ("CumMax", "CumMin", "CumSum"):
            add_case("scan-zero/%s/%s" % (op, d), [z], [[op, 0]], d)
    # Long float32 running sums: NumPy adds in float32, element by element.
    long32 = arr(np.arange(3000) * 0.1 + 0.01, "float32", (3, 1000))
    for axis in (None, 1, 0):
        add_case("scan-long/CumSum/float32/axis=%s" % axis, [long32], [["CumSum", axis]], "float32")
    # Integer wraparound in int64, and int32 sums that leave int32.
    big = arr([2 ** 62, 2 ** 62, 2 ** 62, -5], "int64")
    add_case("scan-wrap/CumSum/int64", [big], [["CumSum", 0]], "int64")
    i32 = arr([2147483647, 2147483647, 2147483647], "int32")
    add_case("scan-wide/CumSum/int32", [i32], [["CumSum", 0]], "int64")
    # Views, fused prologues and epilogues, empty and 0-d arrays.
    v = red_input("float64")
    add_case("scan-view/CumSum/float64/transposed", [v], [["Transpose"], ["CumSum", 0]], "float64")
    add_case("scan-view/CumMax/float64/sliced", [v],
             [["Slice", [[None, None, -1], [None, None, 2]]], ["CumMax", 2]], "float64")
    add_case("scan-fused/CumSum/float32/exp-mul", [red_input("float32")],
             [["Mul", {"float": "0.25"}], ["Exp"], ["CumSum", 1], ["Mul", {"int": 2}]], "float32")
    add_case("scan-fused/CumProd/int32/add", [prod_input("int32")],
             [["Add", {"int": 0}], ["CumProd", -1], ["Sub", {"int": 1}]], "int64")
    e = arr(np.zeros((0, 3)), "float64", (0, 3))
    add_case("scan-empty/CumSum/float64/axis=0", [e], [["CumSum", 0]], "float64")
    add_case("scan-empty/CumMax/float64/axis=1", [e], [["CumMax", 1]], "float64")
    add_case("scan-0d/CumSum/int32/flat", [arr(7, "int32")], [["CumSum", None]], "int64")
# Sorting: Sort and ArgSort (NumPy's stable sort), TopK (no NumPy function:
# the first k of a stable descending sort with NaN largest, as torch.topk
# and jax.lax.top_k, computed here by Python's stable sorted per row).


def topk_indices(x, k, axis):
    m = np.moveaxis(np.asarray(x), axis, -1)
    flat = m.reshape(-1, m.shape[-1]) if m.shape[-1] else m.reshape(-1, 0)
    out = np.zeros((flat.shape[0], k), dtype="int64")
    for r, row in enumerate(flat):
        def key(i):
            v = row[i]
            if row.dtype.kind == "f" and np.isnan(v):
                return (0, 0)
            return (1, -v.item() if row.dtype.kind != "b" else -int(v))
        out[r] = sorted(range(len(row)), key=key)[:k]
    out = out.reshape(m.shape[:-1] + (k,))
    return np.moveaxis(out, -1, axis)


def topk_values(x, k, axis):
    return np.take_along_axis(np.asarray(x), topk_indices(x, k, axis), axis)


SORT_STEPS = {
    "Sort": lambda x, axis: np.sort(x, axis=axis, kind="stable"),
    "ArgSort": lambda x, axis: np.argsort(x, axis=axis, kind="stable").astype("int64"),
    "SortFlat": lambda x: np.sort(x, axis=None, kind="stable"),
    "ArgSortFlat": lambda x: np.argsort(x, axis=None, kind="stable").astype("int64"),
    "TopKValues": topk_values,
    "TopKIndices": topk_indices,
}


def gen_sort():
    for d in DTYPES:
        x = red_input(d)
        for axis in (0, 1, 2, -1, -3):
            add_case("sort/Sort/%s/axis=%d" % (d, axis), [x], [["Sort", axis]], d)
            add_case("sort/ArgSort/%s/axis=%d" % (d, axis), [x], [["ArgSort", axis]], "int64")
        add_case("sort/SortFlat/%s" % d, [x], [["SortFlat"]], d)
        add_case("sort/ArgSortFlat/%s" % d, [x], [["ArgSortFlat"]], "int64")
        for k, axis in ((2, -1), (4, 2), (0, 1), (1, 0), (3, 1)):
            add_case("sort/TopKValues/%s/k=%d/axis=%d" % (d, k, axis), [x], [["TopKValues", k, axis]], d)
            add_case("sort/TopKIndices/%s/k=%d/axis=%d" % (d, k, axis), [x], [["TopKIndices", k, axis]], "int64")
    # Special floats: NaN last (first for TopK), -0.0 and 0.0 equal keys in
    # their order, infinities, ties.
    nan, inf = float("nan"), float("inf")
    special = [0.0, nan, -0.0, 1.5, -inf, 0.0, inf, nan, -1.5, -0.0, 1.5, 1e-30,
               -1e-30, 2.0, nan, -inf, 1.5, 0.0, -0.0, 3.0, -2.0, inf, 1.5, 0.0]
    for d in FLOATS:
        x = arr(special, d, (3, 8))
        for axis in (-1, 0):
            for op in ("Sort", "ArgSort"):
                add_case("sort-special/%s/%s/axis=%d" % (op, d, axis), [x], [[op, axis]],
                         d if op == "Sort" else "int64")
            for k in ((3, 8) if axis == -1 else (3,)):
                for op in ("TopKValues", "TopKIndices"):
                    add_case("sort-special/%s/%s/k=%d/axis=%d" % (op, d, k, axis), [x], [[op, k, axis]],
                             d if op == "TopKValues" else "int64")
        add_case("sort-special/SortFlat/%s" % d, [x], [["SortFlat"]], d)
        add_case("sort-special/ArgSortFlat/%s" % d, [x], [["ArgSortFlat"]], "int64")
    # Ties and the extremes of the integer dtypes.
    for d, lo, hi in (("int32", -2 ** 31, 2 ** 31 - 1), ("int64", -2 ** 63, 2 ** 63 - 1)):
        x = arr([5, lo, hi, 5, 0, -1, hi, lo, 5, 0, -1, 7], d, (2, 6))
        for op in ("Sort", "ArgSort"):
            add_case("sort-ties/%s/%s" % (op, d), [x], [[op, -1]], d if op == "Sort" else "int64")
        for op in ("TopKValues", "TopKIndices"):
            add_case("sort-ties/%s/%s" % (op, d), [x], [[op, 4, -1]], d if op == "TopKValues" else "int64")
    # Views: transposed and reversed inputs; a sort of an expression.
    v = red_input("float32")
    add_case("sort-view/Sort/float32/transposed", [v], [["Transpose"], ["Sort", -1]], "float32")
    add_case("sort-view/ArgSort/float32/reversed", [v],
             [["Slice", [[None, None, None], [None, None, -1], [None, None, -2]]], ["ArgSort", 1]], "int64")
    add_case("sort-expr/Sort/float32/neg-exp", [v], [["Neg"], ["Exp"], ["Sort", 1]], "float32")
    add_case("sort-expr/Sort/int32/then-add", [red_input("int32")],
             [["Sort", 0], ["Add", {"int": 1}], ["Mul", {"in": 0}]], "int32")
    # Empty axes and extent 1.
    e = arr(np.zeros((3, 0)), "float64", (3, 0))
    add_case("sort-empty/Sort/float64", [e], [["Sort", -1]], "float64")
    add_case("sort-empty/ArgSort/float64/axis=0", [e], [["ArgSort", 0]], "int64")
    o = arr([2.5, -1.0, 4.0], "float32", (3, 1))
    add_case("sort-one/ArgSort/float32", [o], [["ArgSort", -1]], "int64")
    add_case("sort-one/SortFlat/float32", [o], [["SortFlat"]], "float32")


# ---------------------------------------------------------------------------
# MatMul.


def gen_matmul():
    def m(shape, d, scale=1.0, off=0.0):
        n = int(np.prod(shape))
        vals = (np.arange(n) % 7 - 3) * (scale if d in FLOATS else 1) + (off if d in FLOATS else 0)
        return arr(vals, d, shape)
    shapes = [
        ("2d", (3, 4), (4, 5)),
        ("vec-mat", (4,), (4, 5)),
        ("mat-vec", (3, 4), (4,)),
        ("vec-vec", (4,), (4,)),
        ("batched", (2, 3, 4), (2, 4, 5)),
        ("batch-broadcast", (2, 1, 3, 4), (5, 4, 2)),
        ("batch-mat", (2, 3, 4), (4, 2)),
        ("batch-vec", (2, 3, 4), (4,)),
        ("vec-batch", (4,), (2, 4, 3)),
        ("k1", (3, 1), (1, 2)),
    ]
    for label, sa, sb in shapes:
        for d in ("int32", "int64", "float32", "float64"):
            a = m(sa, d, 0.5, 0.25)
            b = m(sb, d, 0.25, -0.5)
            add_case("matmul/%s/%s" % (label, d), [a, b], [["MatMul", {"in": 1}]], d)
    a = m((3, 4), "int32")
    b = m((4, 2), "float32", 0.5, 0.125)
    add_case("matmul/2d/int32,float32", [a, b], [["MatMul", {"in": 1}]], "float64")
    add_case("matmul/2d/int64,float64", [m((3, 4), "int64"), m((4, 2), "float64", 0.5)],
             [["MatMul", {"in": 1}]], "float64")
    t = m((4, 3), "float64", 0.5)
    add_case("matmul/transposed/float64", [t, m((4, 2), "float64", 0.25)],
             [["Transpose"], ["MatMul", {"in": 1}]], "float64")
    add_case("matmul/nan/float64", [arr([[1.0, float("nan")], [2.0, 3.0]], "float64"),
                                    arr([[1.0, 0.0], [0.0, 1.0]], "float64")],
             [["MatMul", {"in": 1}]], "float64")


# ---------------------------------------------------------------------------
# Constructors.


def gen_constructors():
    ar = [
        (0, 12, 1, "float32"), (0, 12, 1, "int32"), (0, 10, 3, "int64"), (10, 0, -3, "int32"),
        (10, -1, -2.5, "float64"), (0, 1, 0.1, "float64"), (0, 1, 0.1, "float32"),
        (-2, 2, 0.5, "float32"), (5, 5, 1, "int64"), (5, 0, 1, "float64"), (1.5, 7, 1, "float64"),
        (-3, 4, 2, "int64"),
    ]
    for start, stop, st, d in ar:
        add_case("arange/%s/%s,%s,%s" % (d, start, stop, st), [], [["Arange", start, stop, st, d]], d)
    ls = [(0, 1, 11, "float64"), (0, 1, 11, "float32"), (-1, 1, 5, "float64"), (2, 2, 3, "float64"),
          (0, 10, 4, "int32"), (0, 100, 7, "int64"), (1, 0, 1, "float64"), (0, 1, 0, "float64"),
          (3.5, -2.25, 6, "float32"), (-5, 5, 7, "int64"), (-1, 0, 3, "int32"), (3, -4, 6, "int32")]
    for start, stop, n, d in ls:
        add_case("linspace/%s/%s,%s,%s" % (d, start, stop, n), [], [["Linspace", start, stop, n, d]], d)
    for n, mm, k in ((3, 3, 0), (3, 4, 1), (4, 3, -1), (3, 3, 5), (2, 5, -2), (1, 1, 0)):
        for d in ("float32", "int64", "bool"):
            add_case("eye/%s/%d,%d,k=%d" % (d, n, mm, k), [], [["Eye", n, mm, k, d]], d)
    for d, v, s in (("int32", 7, [2, 3]), ("float32", 0.1, [3]), ("float64", -2.5, [2, 1, 2]),
                    ("bool", 1, [2]), ("int64", -9, []), ("float64", float("nan"), [2]),
                    ("int32", 3.75, [2])):
        add_case("full/%s/%s/%s" % (d, v, shp(s)), [], [["Full", d, repr(float(v)), s]], d)
    for d, v in (("int64", 2 ** 62 + 1), ("int64", -(2 ** 63)), ("int64", 2 ** 63 - 1),
                 ("int32", -(2 ** 31)), ("float64", 2 ** 53 + 1)):
        add_case("full/%s/int %d" % (d, v), [], [["Full", d, v, [2]]], d)
    for d in DTYPES:
        add_case("zeros/%s" % d, [], [["Zeros", d, [2, 3]]], d)
        add_case("ones/%s" % d, [], [["Ones", d, [3, 1]]], d)
    add_case("zeros/float32/empty", [], [["Zeros", "float32", [0, 4]]], "float32")


# ---------------------------------------------------------------------------
# Chains: the example and similar programs of several ops.


def gen_chains():
    chains = {
        # np.arange(0, 12, dtype=float32).reshape(3, 4).T * 2, summed over axis 0
        "arange-reshape-T-mul-sum": [["Arange", 0, 12, 1, "float32"], ["Reshape", [3, 4]],
                                     ["Transpose"], ["Mul", {"int": 2}], ["Sum", [0], False]],
        "arange-permute-slice-add": [["Arange", 0, 24, 1, "float64"], ["Reshape", [2, 3, 4]],
                                     ["Permute", [2, 0, 1]],
                                     ["Slice", [[None, None, 2], [None, None, None], [None, None, -1]]],
                                     ["Reshape", [-1]], ["Add", {"float": "0.5"}]],
        "linspace-exp-sum": [["Linspace", 0, 1, 11, "float32"], ["Exp"], ["Sum", None, False]],
        "int-slice-T-flatten-affine": [["Arange", 0, 12, 1, "int32"], ["Reshape", [3, 4]],
                                       ["Slice", [[None, None, None], [None, None, -2]]],
                                       ["Transpose"], ["Flatten"], ["Mul", {"int": 3}],
                                       ["Sub", {"int": 1}]],
        "eye-add-matmul": [["Eye", 4, 4, 0, "float64"], ["Mul", {"int": 2}],
                           ["Add", {"prog": [["Arange", 0, 4, 1, "float64"]]}],
                           ["MatMul", {"prog": [["Arange", 1, 9, 1, "float64"], ["Reshape", [4, 2]]]}]],
        "abs-max-sqrt": [["Arange", -6, 6, 1, "float32"], ["Reshape", [3, 4]], ["Abs"],
                         ["Max", [1], False], ["Sqrt"]],
        "mod-eq-any": [["Arange", 0, 12, 1, "int64"], ["Reshape", [3, 4]], ["Mod", {"int": 7}],
                       ["Eq", {"int": 0}], ["Any", [1], False]],
        "var-std-ddof1": [["Arange", 0, 10, 1, "float64"], ["Reshape", [2, 5]], ["Square"],
                          ["Std", 1, [1], True], ["Add", {"prog": [["Ones", "float64", [2, 1]]]}]],
        "where-neg": [["Arange", 0, 10, 1, "float32"], ["Gt", {"int": 5}],
                      ["Where", {"prog": [["Arange", 0, 10, 1, "float32"]]},
                       {"prog": [["Arange", 0, 10, 1, "float32"], ["Neg"]]}]],
        "expand-broadcast-sum": [["Arange", 0, 6, 1, "float32"], ["Reshape", [2, 3]],
                                 ["ExpandDims", 0], ["BroadcastTo", [4, 2, 3]], ["Sum", [0, 2], False]],
        "log-mean-keepdims": [["Arange", 1, 13, 1, "float64"], ["Reshape", [3, 4]], ["Log"],
                              ["Mean", [0], True], ["Mul", {"prog": [["Arange", 1, 13, 1, "float64"],
                                                                     ["Reshape", [3, 4]]]}]],
        "astype-div-floor-sum": [["Arange", 0, 8, 1, "int32"], ["AsType", "float32"],
                                 ["Div", {"int": 3}], ["Floor"], ["AsType", "int64"],
                                 ["Sum", None, False]],
        "concat-T-argmax": [["Arange", 0, 6, 1, "int32"], ["Reshape", [2, 3]],
                            ["Concat", 0, [{"prog": [["Arange", 6, 0, -1, "int32"], ["Reshape", [2, 3]]]}]],
                            ["Transpose"], ["ArgMax", 1]],
        "slice-T-reshape-mean": [["Arange", 0, 24, 1, "float32"], ["Reshape", [4, 6]],
                                 ["Slice", [[1, 3, None], [None, None, 2]]], ["Transpose"],
                                 ["Reshape", [2, 3]], ["Mean", [1], False]],
        "int32-sum-float-div": [["Arange", 1, 7, 1, "int32"], ["Reshape", [2, 3]],
                                ["Sum", [1], False], ["Div", {"float": "4.0"}], ["Round"]],
        "stack-clip-prod": [["Linspace", -2, 2, 5, "float64"],
                            ["Stack", 0, [{"prog": [["Linspace", 2, -2, 5, "float64"]]}]],
                            ["Clip", {"float": "-1.5"}, {"int": 1}], ["Prod", [0], False]],
        "sigmoid-tanh-compare": [["Linspace", -3, 3, 7, "float64"], ["Sigmoid"], ["Mul", {"int": 2}],
                                 ["Sub", {"int": 1}],
                                 ["Sub", {"prog": [["Linspace", -1.5, 1.5, 7, "float64"], ["Tanh"]]}],
                                 ["Abs"], ["Lt", {"float": "1e-12"}], ["All", None, False]],
    }
    for name, prog in chains.items():
        add_case("chain/%s" % name, [], prog)


# ---------------------------------------------------------------------------
# Rearranging views (Flip, Roll, Tile, Repeat, RepeatCounts, Pad, PadEdge,
# Diagonal, Triu, Tril) and Einsum.


def _axes(a):
    return None if a is None else tuple(a)


def _einsum(x, args, inputs):
    return np.einsum(args[0], x, *[operand(o, inputs) for o in args[1]])


REARRANGE_NP = {
    "Flip": lambda x, a, i: np.flip(x, _axes(a[0])),
    "Roll": lambda x, a, i: np.roll(x, a[0], _axes(a[1])),
    "Tile": lambda x, a, i: np.tile(x, a[0]),
    "Repeat": lambda x, a, i: np.repeat(x, a[0], a[1]),
    "RepeatCounts": lambda x, a, i: np.repeat(x, a[0], a[1]),
    "Pad": lambda x, a, i: np.pad(x, a[0], mode="constant",
                                  constant_values=float(a[1]) if isinstance(a[1], str) else a[1]),
    "PadEdge": lambda x, a, i: np.pad(x, a[0], mode="edge"),
    "Diagonal": lambda x, a, i: np.diagonal(x, a[0], a[1], a[2]),
    "Triu": lambda x, a, i: np.triu(x, a[0]),
    "Tril": lambda x, a, i: np.tril(x, a[0]),
    "Einsum": _einsum,
}


def gen_rearrange():
    f = arr(np.arange(24) * 0.5 - 3, "float64", (2, 3, 4))
    g = arr(np.arange(12) - 4, "int32", (3, 4))
    h = arr([1.5, float("nan"), -0.0, float("inf"), 2, -7], "float32", (2, 3))
    b = arr(np.arange(6) % 3 == 0, "bool", (2, 3))
    v = arr(np.arange(5) * 2, "int64", (5,))
    one = {"f": f, "g": g, "h": h, "b": b, "v": v}
    cases = [
        ("flip/all", "f", ["Flip", None]), ("flip/1", "f", ["Flip", [1]]), ("flip/0,-1", "g", ["Flip", [0, -1]]),
        ("flip/bool", "b", ["Flip", None]),
        ("roll/flat", "f", ["Roll", 5, None]), ("roll/neg", "g", ["Roll", -2, [1]]), ("roll/big", "v", ["Roll", 12, [0]]),
        ("roll/two axes", "f", ["Roll", 1, [0, 2]]), ("roll/zero", "g", ["Roll", 3, [0]]),
        ("roll/nan", "h", ["Roll", 1, [1]]),
        ("tile/2", "v", ["Tile", [2]]), ("tile/2,3", "g", ["Tile", [2, 3]]), ("tile/more reps", "g", ["Tile", [2, 1, 2]]),
        ("tile/fewer reps", "f", ["Tile", [2]]), ("tile/zero", "g", ["Tile", [0, 2]]), ("tile/bool", "b", ["Tile", [1, 2]]),
        ("repeat/flat", "g", ["Repeat", 2, None]), ("repeat/0", "f", ["Repeat", 3, 0]), ("repeat/-1", "h", ["Repeat", 2, -1]),
        ("repeat/zero", "g", ["Repeat", 0, 1]),
        ("repeatcounts/1", "g", ["RepeatCounts", [1, 0, 2, 2], 1]), ("repeatcounts/0", "g", ["RepeatCounts", [3, 1, 1], 0]),
        ("repeatcounts/flat", "v", ["RepeatCounts", [0, 1, 2, 0, 3], None]),
        ("repeatcounts/zeros", "g", ["RepeatCounts", [0, 0, 0], 0]),
        ("pad/constant", "g", ["Pad", [[1, 2], [0, 3]], 7]), ("pad/one pair", "f", ["Pad", [[1, 1]], -1.5]),
        ("pad/float into int", "g", ["Pad", [[2, 0], [1, 1]], 2.75]), ("pad/bool", "b", ["Pad", [[1, 0], [0, 1]], True]),
        ("pad/nan", "h", ["Pad", [[0, 1], [2, 0]], "nan"]), ("pad/1d", "v", ["Pad", [[3, 1]], 0]),
        ("padedge/2d", "g", ["PadEdge", [[1, 2], [3, 0]]]), ("padedge/3d", "f", ["PadEdge", [[0, 1], [1, 1], [2, 0]]]),
        ("padedge/one pair", "h", ["PadEdge", [[2, 2]]]),
        ("diagonal/main", "g", ["Diagonal", 0, 0, 1]), ("diagonal/+1", "g", ["Diagonal", 1, 0, 1]),
        ("diagonal/-2", "g", ["Diagonal", -2, 0, 1]), ("diagonal/past", "g", ["Diagonal", 5, 0, 1]),
        ("diagonal/3d 1,2", "f", ["Diagonal", 0, 1, 2]), ("diagonal/3d 0,2", "f", ["Diagonal", 1, 0, 2]),
        ("diagonal/3d 2,0", "f", ["Diagonal", -1, 2, 0]), ("diagonal/nan", "h", ["Diagonal", 0, 0, 1]),
        ("triu/0", "g", ["Triu", 0]), ("triu/1", "f", ["Triu", 1]), ("triu/-1", "h", ["Triu", -1]),
        ("tril/0", "g", ["Tril", 0]), ("tril/-1", "f", ["Tril", -1]), ("tril/2", "b", ["Tril", 2]),
        ("tril/1d", "v", ["Tril", 0]), ("triu/1d", "v", ["Triu", 1]),
    ]
    for name, which, st in cases:
        x = one[which]
        add_case(name, [x], [["Input", 0], st], str(x.dtype))


def gen_einsum():
    rng = np.random.default_rng(14)

    def r(shape, d="float64"):
        if d in INTS:
            return rng.integers(-5, 6, size=shape).astype(d)
        if d == "bool":
            return rng.integers(0, 2, size=shape).astype(bool)
        return (rng.integers(-8, 9, size=shape) * 0.25).astype(d)

    cases = [
        ("matmul", "ij,jk->ik", [(3, 4), (4, 5)], "float32"),
        ("batched", "bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], "float64"),
        ("batched f32", "bij,bjk->bik", [(3, 5, 6), (3, 6, 4)], "float32"),
        ("implicit matmul", "ij,jk", [(3, 4), (4, 2)], "float64"),
        ("implicit transpose", "ji", [(3, 4)], "float64"),
        ("diagonal", "ii->i", [(4, 4)], "float64"),
        ("trace", "ii", [(4, 4)], "int64"),
        ("transpose", "ij->ji", [(2, 5)], "float32"),
        ("sum", "ij->", [(3, 4)], "float64"),
        ("column sums", "ij->j", [(3, 4)], "int32"),
        ("dot", "i,i", [(7,), (7,)], "float64"),
        ("outer", "i,j->ij", [(3,), (4,)], "float64"),
        ("matvec", "ij,j->i", [(5, 6), (6,)], "float32"),
        ("rowdot", "ij,ij->i", [(4, 6), (4, 6)], "float64"),
        ("ellipsis", "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)], "float64"),
        ("ellipsis implicit", "...ij,...jk", [(2, 3, 4), (4, 2)], "float64"),
        ("ellipsis sum", "...i->...", [(2, 3, 4)], "float64"),
        ("ellipsis middle", "i...j->j...i", [(2, 3, 4)], "float64"),
        ("repeated in 3d", "iij->ji", [(3, 3, 2)], "float64"),
        ("chain", "ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)], "float64"),
        ("bilinear", "i,ij,j->", [(3,), (3, 4), (4,)], "float64"),
        ("batched chain", "bij,bjk,bkl->bil", [(2, 3, 4), (2, 4, 5), (2, 5, 3)], "float64"),
        ("four", "ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 2), (2, 3)], "float64"),
        ("permuted contraction", "ijk,jil->kl", [(3, 4, 5), (4, 3, 2)], "float64"),
        ("upper case", "Ab,bC->AC", [(2, 3), (3, 4)], "float64"),
        ("broadcast letter", "ij,ij->ij", [(2, 3), (1, 3)], "float64"),
        ("broadcast contracted", "ij,jk->ik", [(2, 3), (1, 4)], "float64"),
        ("int32", "ij,jk", [(3, 4), (4, 2)], "int32"),
        ("int64 batched", "bij,bjk->bik", [(2, 3, 4), (2, 4, 3)], "int64"),
        ("bool", "ij,jk->ik", [(3, 4), (4, 2)], "bool"),
        ("empty contraction", "ij,jk->ik", [(2, 0), (0, 3)], "float64"),
        ("spaces", " ij , jk -> ik ", [(2, 3), (3, 2)], "float64"),
        ("sum out early", "ij,k->k", [(2, 3), (4,)], "float64"),
        ("three way batch", "bi,bi,bi->b", [(3, 4), (3, 4), (3, 4)], "float64"),
        ("implicit upper before lower", "bA", [(2, 3)], "float64"),
        ("empty dot", "i,i->", [(0,), (0,)], "float64"),
        ("0-d operand", ",ij->ij", [(), (2, 3)], "float64"),
    ]
    for name, sub, shapes, d in cases:
        ops = [r(sh, d) for sh in shapes]
        want = str(np.einsum(sub, *ops).dtype)
        add_case("einsum/%s" % name, ops, [["Input", 0], ["Einsum", sub, [{"in": k} for k in range(1, len(ops))]]], want)
    a = r((3, 4), "int32")
    b = r((4, 2), "float32")
    add_case("einsum/int32,float32", [a, b], [["Input", 0], ["Einsum", "ij,jk->ik", [{"in": 1}]]], "float64")
    nan = np.array([[1.0, float("nan")], [float("inf"), 2.0]])
    add_case("einsum/nan", [nan, np.eye(2)], [["Input", 0], ["Einsum", "ij,jk->ik", [{"in": 1}]]], "float64")
# Indexing: Take, TakeAlongAxis, Mask, Nonzero, FlatNonzero, Put, Set,
# ScatterAdd, ScatterMax, Bincount, Histogram. Put takes values that
# broadcast to the indices (NumPy also repeats a short values array
# cyclically; fuseflow does not, so no case does). Set, ScatterAdd and
# ScatterMax are a[(:,)*axis + (idx,)] = v, np.add.at and np.maximum.at on
# a copy.


def np_updated(x, args, inputs, fn):
    idx, v, axis = operand(args[0], inputs), operand(args[1], inputs), args[2]
    c = x.copy()
    key = tuple([slice(None)] * (axis % x.ndim) + [idx])
    fn(c, key, np.asarray(v).astype(x.dtype))
    return c


def np_set(c, key, v):
    c[key] = v


def np_put(x, args, inputs):
    idx, v = operand(args[0], inputs), operand(args[1], inputs)
    c = x.copy()
    np.put(c, idx, np.broadcast_to(np.asarray(v).astype(x.dtype), np.shape(idx)))
    return c


def np_bincount(x, args, inputs):
    w = None if args[0] is None else operand(args[0], inputs)
    return np.bincount(x, weights=w, minlength=args[1])


def np_histogram(x, args, inputs, k):
    rng = None if args[1] is None else (float(args[1][0]), float(args[1][1]))
    return np.histogram(x, bins=args[0], range=rng)[k]


def np_histogram_with(x, args, inputs):
    o, k = args[0], args[1]
    bins = o.get("bins", 10)
    if isinstance(bins, dict):
        bins = operand(bins, inputs)
    rng = o.get("range")
    rng = None if rng is None else (float(rng[0]), float(rng[1]))
    w = o.get("weights")
    w = None if w is None else operand(w, inputs)
    return np.histogram(x, bins=bins, range=rng, weights=w, density=o.get("density", False))[k]


INDEX_STEPS = {
    "Take": lambda x, a, i: np.take(x, operand(a[0], i), axis=a[1]),
    "TakeAlongAxis": lambda x, a, i: np.take_along_axis(x, operand(a[0], i), axis=a[1]),
    "Mask": lambda x, a, i: x[operand(a[0], i)],
    "Nonzero": lambda x, a, i: np.nonzero(x)[a[0]],
    "FlatNonzero": lambda x, a, i: np.flatnonzero(x),
    "Put": np_put,
    "Set": lambda x, a, i: np_updated(x, a, i, np_set),
    "ScatterAdd": lambda x, a, i: np_updated(x, a, i, np.add.at),
    "ScatterMax": lambda x, a, i: np_updated(x, a, i, np.maximum.at),
    "Bincount": np_bincount,
    "Histogram": lambda x, a, i: np_histogram(x, a, i, 0),
    "HistogramEdges": lambda x, a, i: np_histogram(x, a, i, 1),
    "HistogramWith": np_histogram_with,
}


def gen_index():
    x34 = {d: arr(np.arange(12) * (1 if d != "bool" else 1) % (2 if d == "bool" else 100), d, (3, 4)) for d in DTYPES}
    x34["float32"] = arr([0.5, -1.5, 2.0, float("nan"), 4.0, -0.0, 6.25, 7.0, 8.0, float("inf"), 10.0, 11.5],
                         "float32", (3, 4))
    x34["float64"] = x34["float32"].astype("float64") * 3.0
    i4 = arr([2, -1, 0, 2], "int64")
    i22 = arr([[1, -3], [0, 2]], "int32")
    for d in DTYPES:
        add_case("index/take/%s/axis0" % d, [x34[d], i4[:3]], [["Take", {"in": 1}, 0]])
        add_case("index/take/%s/axis1" % d, [x34[d], i4], [["Take", {"in": 1}, 1]])
        add_case("index/take/%s/idx2d" % d, [x34[d], i22], [["Take", {"in": 1}, -1]])
        add_case("index/mask/%s" % d, [x34[d], arr(np.arange(12) % 3 == 1, "bool", (3, 4))], [["Mask", {"in": 1}]])
        add_case("index/nonzero/%s" % d, [x34[d]], [["Nonzero", 1]])
        add_case("index/flatnonzero/%s" % d, [x34[d]], [["FlatNonzero"]])
        add_case("index/put/%s" % d, [x34[d], arr([0, 5, -1, 5], "int64"), x34[d].ravel()[4:8]],
                 [["Put", {"in": 1}, {"in": 2}]])
        add_case("index/set/%s/axis1" % d, [x34[d], arr([3, 0, 3], "int32"), arr([[1], [0], [1]], d)],
                 [["Set", {"in": 1}, {"in": 2}, 1]])
        add_case("index/scattermax/%s" % d, [x34[d], arr([1, 1, 0, -1], "int64"), x34[d][::-1, :].copy()],
                 [["ScatterMax", {"in": 1}, {"in": 2}, 1]])
        if d != "bool":
            add_case("index/scatteradd/%s/axis0" % d, [x34[d], arr([0, 2, 0, 0, -1], "int64"), arr(np.arange(20) % 7, d, (5, 4))],
                     [["ScatterAdd", {"in": 1}, {"in": 2}, 0]])
    # TakeAlongAxis: per-row argsort order, a broadcast index, axis 0.
    xf = arr([[3.0, 1.0, 2.0, 0.5], [9.0, -1.0, 4.0, 4.0], [0.0, 7.0, -2.0, 1.0]], "float32")
    add_case("index/takealong/argsort", [xf, np.argsort(xf, axis=1, kind="stable")], [["TakeAlongAxis", {"in": 1}, 1]])
    add_case("index/takealong/argmax", [xf, arr([[3], [0], [-3]], "int32")], [["TakeAlongAxis", {"in": 1}, -1]])
    add_case("index/takealong/axis0", [xf, arr([[2, 1, 0, -1], [0, 0, 0, 0]], "int64")], [["TakeAlongAxis", {"in": 1}, 0]])
    add_case("index/takealong/bcast", [xf, arr([[2, 1, 0, 1]], "int64")], [["TakeAlongAxis", {"in": 1}, 0]])
    add_case("index/takealong/int64", [arr(np.arange(24), "int64", (2, 3, 4)), arr(np.arange(8) % 3, "int64", (2, 1, 4))],
             [["TakeAlongAxis", {"in": 1}, 1]])
    # Fused prologue and epilogue around a gather; views as indices.
    add_case("index/take/fused", [xf, i4], [["Exp"], ["Take", {"in": 1}, 1], ["Add", {"int": 1}]])
    add_case("index/take/3d", [arr(np.arange(24), "float64", (2, 3, 4)), i22], [["Take", {"in": 1}, 1]])
    add_case("index/take/transposed", [xf, i4[:3]], [["Transpose"], ["Take", {"in": 1}, 1]])
    # Masks: rows by a 1-d mask, a computed mask, a mask that selects nothing.
    add_case("index/mask/rows", [xf, arr([True, False, True], "bool")], [["Mask", {"in": 1}]])
    add_case("index/mask/computed", [xf], [["Mask", {"prog": [["Input", 0], ["Gt", {"float": "1.5"}]]}], ["Mul", {"int": 2}]])
    add_case("index/mask/none", [xf, arr(np.zeros(12, bool), "bool", (3, 4))], [["Mask", {"in": 1}]])
    add_case("index/nonzero/1d", [arr([0, 3, 0, 0, -1, 2], "int32")], [["Nonzero", 0]])
    add_case("index/put/scalar", [xf, arr([[1, 11], [-12, 4]], "int64")], [["Put", {"in": 1}, {"float": "-2.5"}]])
    add_case("index/set/axis0/scalar", [xf, arr([2, 0], "int32")], [["Set", {"in": 1}, {"int": 5}, 0]])
    add_case("index/scatteradd/3d", [arr(np.zeros(24), "float64", (2, 3, 4)), arr([0, 2, 2, -1, 0], "int32"),
                                      arr(np.arange(40) * 0.25, "float64", (2, 5, 4))], [["ScatterAdd", {"in": 1}, {"in": 2}, 1]])
    add_case("index/scattermax/nan", [arr([1.0, 2.0, 3.0], "float64"), arr([0, 0, 2, 1], "int64"),
                                      arr([5.0, float("nan"), -1.0, 0.5], "float64")], [["ScatterMax", {"in": 1}, {"in": 2}, 0]])
    # Bincount and Histogram.
    b = arr([0, 3, 3, 1, 7, 3, 0], "int64")
    add_case("index/bincount/plain", [b], [["Bincount", None, 0]])
    add_case("index/bincount/minlength", [b.astype("int32")], [["Bincount", None, 10]])
    add_case("index/bincount/weights", [b, arr([0.5, 1.0, 0.25, 2.0, 1.5, -1.0, 3.0], "float64")], [["Bincount", {"in": 1}, 0]])
    add_case("index/bincount/weights32", [b, arr([0.5, 1.0, 0.25, 2.0, 1.5, -1.0, 3.0], "float32")], [["Bincount", {"in": 1}, 2]])
    h = arr([0.0, 0.1, 0.2, 0.3, 0.7, 1.0, 1.0, -0.5, 2.0, 0.6, 0.9999999, 0.4, float("nan")], "float64")
    hv = h[:-1].copy()
    for name, x, bins, rng in [("f64", h, 10, [0.0, 1.0]), ("f64/auto", hv, 7, None), ("f32", h.astype("float32"), 5, [0.0, 1.0]),
                               ("f32/auto", hv.astype("float32"), 3, None), ("f32/tenths", arr(np.arange(30) * 0.1, "float32"), 10, [0.0, 2.9]),
                               ("int", arr([1, 2, 2, 3, 9, -4, 5], "int64"), 4, None), ("int/range", arr([1, 2, 2, 3, 9, -4, 5], "int32"), 3, [0, 6]),
                               ("const", arr([2.0, 2.0], "float64"), 2, None),
                               # Values on the edges, where the scaled index rounds below the
                               # edge's bin and NumPy corrects it upward.
                               ("f64/on_edges", arr(np.linspace(-1, 1, 101), "float64"), 100, [-1.0, 1.0]),
                               ("f32/on_edges", arr(np.linspace(0, 2.9, 11), "float32"), 10, [0.0, 2.9])]:
        add_case("index/histogram/%s" % name, [x], [["Histogram", bins, rng]])
        add_case("index/histogram_edges/%s" % name, [x], [["HistogramEdges", bins, rng]])
    # HistogramWith: weights (their dtype kept), density, explicit edges
    # (searchsorted bins: half-open, the last closed; values on edges,
    # outside them, NaN; repeated edges; infinite edges), all together.
    hw = arr([0.5, 1.0, 0.25, 2.0, 1.5, -1.0, 3.0, 0.75, 2.5, 1.25, 4.0, 0.125, 9.0], "float64")
    edges = arr([0.0, 0.25, 0.3, 0.7, 1.0], "float64")
    with_cases = [
        ("weights/f64", [h, hw], {"bins": 4, "range": [0.0, 1.0], "weights": {"in": 1}}),
        ("weights/f32", [h.astype("float32"), hw.astype("float32")], {"bins": 5, "range": [0.0, 1.0], "weights": {"in": 1}}),
        ("weights/i32", [h, arr(np.arange(13) - 4, "int32")], {"bins": 3, "range": [0.0, 1.0], "weights": {"in": 1}}),
        ("weights/u8", [h, arr(np.arange(13) * 3, "uint8")], {"bins": 3, "range": [0.0, 1.0], "weights": {"in": 1}}),
        ("weights/auto", [hv, hw[:-1]], {"bins": 6, "weights": {"in": 1}}),
        ("weights/2d", [arr(np.arange(12) % 5, "int64", (3, 4)), arr(np.arange(12) * 0.5, "float64", (3, 4))],
         {"bins": 4, "weights": {"in": 1}}),
        ("default", [hv], {}),
        ("density", [h], {"bins": 4, "range": [0.0, 1.0], "density": True}),
        ("density/f32", [hv.astype("float32")], {"bins": 3, "density": True}),
        ("density/weights", [h, hw], {"bins": 5, "range": [-1.0, 1.0], "weights": {"in": 1}, "density": True}),
        ("density/int", [arr([1, 2, 2, 3, 9, -4, 5], "int64")], {"bins": 4, "density": True}),
        ("edges/f64", [h, edges], {"bins": {"in": 1}}),
        ("edges/f32data", [h.astype("float32"), edges], {"bins": {"in": 1}}),
        ("edges/f32", [arr(np.arange(30) * 0.1, "float32"), arr([0.0, 0.3, 0.9, 1.2, 2.0, 2.9], "float32")], {"bins": {"in": 1}}),
        ("edges/int", [arr([1, 2, 2, 3, 9, -4, 5, 6, 0], "int64"), arr([0, 2, 3, 6], "int64")], {"bins": {"in": 1}}),
        ("edges/int32float", [arr([1, 2, 2, 3, 9, -4, 5, 6, 0], "int32"), arr([0.5, 2.0, 5.5, 6.0], "float32")], {"bins": {"in": 1}}),
        ("edges/repeated", [h, arr([0.0, 0.3, 0.3, 0.7, 1.0, 1.0], "float64")], {"bins": {"in": 1}}),
        ("edges/two", [h, arr([0.3, 0.7], "float64")], {"bins": {"in": 1}}),
        ("edges/inf", [h, arr([-np.inf, 0.0, 1.0, np.inf], "float64")], {"bins": {"in": 1}}),
        ("edges/many", [arr(np.linspace(-1, 11, 97), "float64"), arr(np.sort(np.r_[np.arange(11) ** 1.1, 0.5, 2.5, 7.25]), "float64")],
         {"bins": {"in": 1}}),
        ("edges/weights", [h, edges, hw], {"bins": {"in": 1}, "weights": {"in": 2}}),
        ("edges/density", [h, edges], {"bins": {"in": 1}, "density": True}),
        ("edges/weights/density", [h, edges, hw.astype("float32")], {"bins": {"in": 1}, "weights": {"in": 2}, "density": True}),
        ("edges/density/int", [arr([1, 2, 2, 3, 9, -4, 5, 6, 0], "int64"), arr([0, 2, 3, 6], "int64")], {"bins": {"in": 1}, "density": True}),
    ]
    for name, ins, o in with_cases:
        add_case("index/histogram_with/%s" % name, ins, [["HistogramWith", o, 0]])
        if name in ("weights/f32", "default", "edges/f32", "edges/int", "density/f32"):
            add_case("index/histogram_with_edges/%s" % name, ins, [["HistogramWith", o, 1]])


# ---------------------------------------------------------------------------
# The dtypes int8, int16, uint8, uint16, uint32, uint64 and float16
# (graph/promote.go's table; bfloat16 has no NumPy dtype and is tested in
# Go). NumPy 1.24 and NumPy 2 agree on every array-with-array promotion;
# weak scalars are generated only where both agree (small Go ints with
# integer arrays). Float to integer casts are generated only in range.

NEW_INTS = ("int8", "int16", "uint8", "uint16", "uint32", "uint64")
NEW_ALL = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64")
INT_INFO = {d: np.iinfo(d) for d in NEW_INTS}


def wrap_values(d):
    """Values reaching both ends of d, for wrapping arithmetic."""
    i = INT_INFO[d]
    if i.min < 0:
        return [int(i.max), int(i.min), -1, 7, -100 if d == "int8" else -1000, 3]
    return [int(i.max), 0, int(i.max) - 1, 7, 100, 3]


def gen_dtypes14():
    # Promotion of every pair, through Add (Maximum with bool operands:
    # bool + bool is an error in fuseflow).
    for da in NEW_ALL:
        for db in NEW_ALL:
            if da in DTYPES and db in DTYPES:
                continue  # the existing cases cover these
            op = "Maximum" if "bool" in (da, db) else "Add"
            a = arr([0, 1, 2, 3, 5, 7], da, (6, 1)) if da != "bool" else arr([True, False] * 3, da, (6, 1))
            b = arr([1, 2, 3, 4, 6], db) if db != "bool" else arr([True, False, True, True, False], db)
            add_case("dtypes/promote/%s/%s,%s" % (op, da, db), [a, b], [[op, {"in": 1}]],
                     str(np.promote_types(da, db)))
    # Wrapping arithmetic, division, comparisons and bit ops on each
    # integer dtype.
    for d in NEW_INTS:
        signed = INT_INFO[d].min < 0
        a = arr(wrap_values(d), d, (6, 1))
        b = arr([1, 2, 3, 7, 100] if not signed else [1, 2, -3, 7, 100], d)
        for op in ("Add", "Sub", "Mul", "FloorDiv", "Mod", "Maximum", "Minimum", "Lt", "Eq", "And", "Or", "Xor"):
            add_case("dtypes/binary/%s/%s" % (op, d), [a, b], [[op, {"in": 1}]])
        add_case("dtypes/binary/Pow/%s" % d, [a, arr([0, 1, 2, 3, 9], d)], [["Pow", {"in": 1}]])
        z = arr([0, 0, 0, 0, 0, 0], d)
        add_case("dtypes/binary/FloorDiv/%s/zero" % d, [a.ravel(), z], [["FloorDiv", {"in": 1}]])
        add_case("dtypes/binary/Mod/%s/zero" % d, [a.ravel(), z], [["Mod", {"in": 1}]])
        x = a.ravel()
        for op in ("Neg", "Abs", "Sign", "Square", "Not"):
            add_case("dtypes/unary/%s/%s" % (op, d), [x], [[op]])
        small = arr([0, 1, 2, 3, 7, 100], d)
        for op in ("Sqrt", "Exp", "Sin"):
            add_case("dtypes/unary/%s/%s" % (op, d), [small], [[op]])
        add_case("dtypes/weak/Add/%s" % d, [x], [["Add", {"int": 3}]], d)
        add_case("dtypes/weak/Mul/%s" % d, [x], [["Mul", {"int": 2}]], d)
        r = arr([5, 3, 7, 100, 1, 2, 0, 4, 3, 9, 11, 6], d, (3, 4))
        for op in ("Sum", "Prod", "Mean", "Max", "Min", "Any"):
            for axes in (None, [0], [1]):
                label = "all" if axes is None else ",".join(map(str, axes))
                add_case("dtypes/reduce/%s/%s/axes=%s" % (op, d, label), [r], [[op, axes, False]])
        big = arr(wrap_values(d)[:4] * 3, d, (3, 4))
        for op in ("Sum", "Max", "Min"):
            add_case("dtypes/reduce/%s/%s/extremes" % (op, d), [big], [[op, [0], False]])
        for op in ("ArgMax", "ArgMin"):
            add_case("dtypes/reduce/%s/%s" % (op, d), [big], [[op, 1]])
        add_case("dtypes/matmul/%s" % d, [big], [["MatMul", {"prog": [["Input", 0], ["Transpose"]]}]])
        # Casts: every other dtype to d in range, d to every other dtype.
        for src in NEW_ALL:
            if src == "bool":
                v = arr([True, False, True], src)
            elif src.startswith("float"):
                v = arr([0.0, 1.9, 3.5, 100.25] + ([-1.5, -100.75] if signed else []), src)
            else:
                v = arr([0, 1, 7, 100], src)
            add_case("dtypes/astype/into/%s/%s" % (src, d), [v], [["AsType", d]], d)
            if src != d:
                add_case("dtypes/astype/from/%s/%s" % (d, src), [x], [["AsType", src]], src)
    # Integer casts that wrap (defined by NumPy as C's conversions).
    for src, dst in (("int64", "int8"), ("int32", "uint8"), ("int16", "uint16"), ("int64", "uint32"),
                     ("int8", "uint64"), ("uint64", "int8"), ("uint32", "int16")):
        v = arr([300, -1, 65537, -129, 2 ** 31 + 5] if src in ("int64",) else [100, -1, 127, -128, 3], src) \
            if not src.startswith("uint") else arr([2 ** (8 * np.dtype(src).itemsize) - 1, 128, 255, 65536 % 256, 3], src)
        add_case("dtypes/astype/wrap/%s/%s" % (src, dst), [v], [["AsType", dst]], dst)
    # float16: arithmetic rounds to float16 each op, float math of small
    # integers gives float16.
    h = arr([0.1, -2.5, 1000.0, 65504.0, 6e-5, -0.0, 3.0, float("inf")], "float16")
    hb = arr([3.0, 0.7, -1.5, 2.0, 1e-3, 7.0, -0.25, 2.0], "float16")
    for op in ("Add", "Sub", "Mul", "Div", "Maximum", "Lt", "FloorDiv", "Mod"):
        add_case("dtypes/float16/%s" % op, [h, hb], [[op, {"in": 1}]], "float16" if op != "Lt" else "bool")
    for op in ("Sqrt", "Exp", "Log", "Sin", "Tanh", "Neg", "Abs", "Round", "Floor"):
        add_case("dtypes/float16/%s" % op, [hb], [[op]], "float16")
    add_case("dtypes/float16/weak", [h], [["Mul", {"float": "0.5"}], ["Add", {"int": 1}]], "float16")
    add_case("dtypes/float16/overflow", [arr([300.0, -300.0, 255.9], "float16")], [["Square"]], "float16")
    hr = arr(np.arange(12) * 0.75 - 3, "float16", (3, 4))
    for op in ("Sum", "Mean", "Max", "Min"):
        for axes in (None, [1]):
            label = "all" if axes is None else ",".join(map(str, axes))
            add_case("dtypes/float16/reduce/%s/axes=%s" % (op, label), [hr], [[op, axes, False]], "float16")
    add_case("dtypes/float16/ArgMax", [hr], [["ArgMax", 0]], "int64")
    add_case("dtypes/float16/matmul", [hr], [["MatMul", {"prog": [["Input", 0], ["Transpose"]]}]], "float16")
    # Scans, scatters and gathers on each new dtype (uint64 with values
    # above 2^63, so that its ordering is unsigned).
    for d in NEW_INTS + ("float16",):
        if d == "float16":
            v = arr([3.5, -1.0, 2.25, 100.0, 0.5, -7.0, 4.0, 1.0, 65.0, 2.0, -3.0, 8.0], d, (3, 4))
        else:
            v = arr(wrap_values(d) * 2, d, (3, 4))
        for op in ("CumSum", "CumMax", "CumMin"):
            add_case("dtypes/scan/%s/%s" % (op, d), [v], [[op, 1]])
        add_case("dtypes/scan/CumProd/%s" % d, [arr([1, 2, 3, 1, 2, 3, 7, 1, 2, 100, 1, 2], d, (3, 4))], [["CumProd", 0]])
        add_case("dtypes/index/take/%s" % d, [v, arr([3, 0, -1], "int64")], [["Take", {"in": 1}, 1]])
        add_case("dtypes/sort/Sort/%s" % d, [v], [["Sort", 1]], d)
        add_case("dtypes/sort/ArgSort/%s" % d, [v], [["ArgSort", 0]], "int64")
        add_case("dtypes/sort/TopKValues/%s" % d, [v], [["TopKValues", 2, 1]], d)
        add_case("dtypes/index/mask/%s" % d, [v, arr(np.arange(12) % 3 == 1, "bool", (3, 4))], [["Mask", {"in": 1}]])
        add_case("dtypes/index/scattermax/%s" % d, [v, arr([1, 1, 0, -1], "int64"), v[::-1, :].copy()],
                 [["ScatterMax", {"in": 1}, {"in": 2}, 1]])
        add_case("dtypes/index/scatteradd/%s" % d, [v, arr([0, 2, 0, 0, -1], "int64"), arr(np.arange(20) % 7, d, (5, 4))],
                 [["ScatterAdd", {"in": 1}, {"in": 2}, 0]])


def main():
    gen_dtypes14()
    gen_index()
    gen_unary()
    gen_binary()
    gen_special_binary()
    gen_weak()
    gen_where_clip()
    gen_astype()
    gen_views()
    gen_reductions()
    gen_matmul()
    gen_scans()
    gen_sort()
    gen_constructors()
    gen_chains()
    gen_rearrange()
    gen_einsum()
    doc = {
        "numpy_version": np.__version__,
        "generator": "array/testdata/gen_numpy.py",
        "skipped": SKIPPED,
        "cases": CASES,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"), sort_keys=False)
        f.write("\n")
    print("%d cases, %d skipped, %d bytes -> %s" % (len(CASES), len(SKIPPED), os.path.getsize(OUT), OUT),
          file=sys.stderr)


if __name__ == "__main__":
    main()
