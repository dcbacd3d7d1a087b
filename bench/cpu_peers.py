#!/usr/bin/python3
"""CPU peer benchmarks: every workload of bench/workloads.txt (the list
exec/cpu's BenchmarkSuite runs), with NumPy and, where the expression
translates, NumExpr, at the same sizes and dtypes. Prints one line per
workload, library and reading, `peer <workload> <library> <ns/op>`, the
median of several timed batches, for bench/cpujoin (which takes the
median of a row's readings when --rounds asks for more than one).

    /usr/bin/python3 bench/cpu_peers.py [--filter REGEX] [--min-time S] [--rounds R]
    /usr/bin/python3 bench/cpu_peers.py --check-deps
    /usr/bin/python3 bench/cpu_peers.py --names [--filter REGEX]

Needs Debian's python3-numpy, python3-numexpr and libopenblas0-pthread
(NumPy's matmul on OpenBLAS); --check-deps prints the command that
installs them and exits 1 when one is missing.
"""
import argparse
import os
import re
import sys
import time
import zlib

WINDOW = 8  # workloads made ready at once (exec/cpu's suiteWindow)
INSTALL = "sudo apt-get install -y python3-numpy python3-numexpr libopenblas0-pthread"


def check_deps():
    """Exits 1, printing the install command, unless NumPy, NumExpr and
    OpenBLAS (as NumPy's BLAS) are present."""
    missing = []
    try:
        import numpy as np
    except ImportError:
        np = None
        missing.append("python3-numpy")
    try:
        import numexpr  # noqa: F401
    except ImportError:
        missing.append("python3-numexpr")
    if np is not None:
        a = np.ones((64, 64))
        a @ a  # loads the BLAS library
        with open("/proc/self/maps") as f:
            if "openblas" not in f.read():
                missing.append("libopenblas0-pthread")
    if missing:
        print(f"bench-cpu: {sys.executable} lacks {', '.join(missing)}; install with:\n  {INSTALL}",
              file=sys.stderr)
        sys.exit(1)


def parse_list(path):
    """Returns [(name, [(input, dtype, shape, lo, hi)], expr)] from the
    workload file (format: bench/suite/format.go)."""
    out = []
    pat = re.compile(r"^(\w+)=(\w+)\[([\d,]+)\]\(([^,]+),([^)]+)\)$")
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, ins, expr = (p.strip() for p in line.split(" | "))
            inputs = []
            for spec in ins.split():
                m = pat.match(spec)
                if not m:
                    sys.exit(f"cpu_peers.py: {path}: bad input {spec!r}")
                shape = tuple(int(d) for d in m.group(3).split(","))
                inputs.append((m.group(1), m.group(2), shape, float(m.group(4)), float(m.group(5)), spec))
            out.append((name, inputs, expr))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filter", default="", help="regular expression: the workloads to run")
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds of timed runs per workload and library")
    ap.add_argument("--rounds", type=int, default=1, help="readings per workload and library, in rounds over windows of workloads")
    ap.add_argument("--check-deps", action="store_true")
    ap.add_argument("--names", action="store_true", help="print the names of the selected workloads and exit")
    ap.add_argument("--list", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads.txt"))
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error(f"--rounds {args.rounds}: want at least 1")
    if args.names:
        for name, _, _ in parse_list(args.list):
            if re.search(args.filter, name):
                print(name)
        return
    check_deps()
    if args.check_deps:
        return

    import numpy as np
    import numexpr as ne

    dtypes = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "bool": np.bool_}

    def keep(f):
        return lambda x, *ax: f(x, axis=ax if ax else None, keepdims=True)

    def red(f):
        return lambda x, *ax: f(x, axis=ax if ax else None)

    def arg(f):
        return lambda x, *ax: f(x, axis=ax[0] if ax else None)

    def scan(f):  # scan(x, axis), or scan(x) over the flattened array
        return lambda x, *ax: f(x, ax[0]) if ax else f(x.ravel(), 0)

    def step(x, ax, k):
        return x[(slice(None),) * ax + (slice(None, None, k),)]

    def rev(x, ax):
        return x[(slice(None),) * ax + (slice(None, None, -1),)]

    # NUMPY: each function of the workload syntax as a NumPy user writes it.
    def topk(x, k, ax=-1):  # the k largest along ax, largest first: argpartition, then a sort of the k
        n = x.shape[ax]
        i = np.take(np.argpartition(x, n - k, axis=ax), np.arange(n - k, n), axis=ax)
        return np.flip(np.sort(np.take_along_axis(x, i, axis=ax), axis=ax), axis=ax)

    NUMPY = {
        "neg": np.negative, "abs": np.abs, "sign": np.sign, "sqrt": np.sqrt,
        "rsqrt": lambda x: 1 / np.sqrt(x), "exp": np.exp, "exp2": np.exp2, "log": np.log,
        "log2": np.log2, "log1p": np.log1p, "expm1": np.expm1, "sin": np.sin, "cos": np.cos,
        "tan": np.tan, "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
        "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc,
        "recip": np.reciprocal, "square": np.square, "isnan": np.isnan, "isinf": np.isinf,
        "not_": np.invert, "T": lambda x: x.T, "copy": np.copy,
        "f32": lambda x: x.astype(np.float32), "f64": lambda x: x.astype(np.float64),
        "i32": lambda x: x.astype(np.int32), "i64": lambda x: x.astype(np.int64),
        "bool": lambda x: x.astype(np.bool_),
        "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
        "floordiv": np.floor_divide, "mod": np.mod, "pow": np.power, "maximum": np.maximum,
        "minimum": np.minimum, "atan2": np.arctan2, "eq": np.equal, "ne": np.not_equal,
        "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
        "and_": np.bitwise_and, "or_": np.bitwise_or, "xor": np.bitwise_xor,
        "matmul": np.matmul, "where": np.where, "rev": rev, "step": step,
        "sum": red(np.sum), "sumk": keep(np.sum), "prod": red(np.prod), "max": red(np.max),
        "maxk": keep(np.max), "min": red(np.min), "mink": keep(np.min), "any": red(np.any),
        "all": red(np.all), "argmax": arg(np.argmax), "argmin": arg(np.argmin),
        "mean": red(np.mean), "meank": keep(np.mean), "var": red(np.var), "std": red(np.std),
        "stdk": keep(np.std),
        "cumsum": scan(np.cumsum), "cumprod": scan(np.cumprod),
        "cummax": scan(np.maximum.accumulate), "cummin": scan(np.minimum.accumulate),
        "take": lambda x, i, ax: np.take(x, i, axis=ax),
        "takealong": lambda x, i, ax: np.take_along_axis(x, i, axis=ax),
        "mask": lambda x, c: x[c],
        "bincount": lambda x, *m: np.bincount(x, minlength=m[0] if m else 0),
        "hist": lambda x, bins: np.histogram(x, bins)[0],
        # NumPy's default kinds, as a user calls them (introsort, not stable).
        "sort": lambda x, *ax: np.sort(x, axis=ax[0] if ax else -1),
        "argsort": lambda x, *ax: np.argsort(x, axis=ax[0] if ax else -1),
        "topk": topk,
    }

    def einsum(name):  # einsum_<term>_<term>_<output>, as NumPy users call it
        parts = name.split("_")[1:]
        subs = ",".join(parts[:-1]) + "->" + parts[-1]
        return lambda *ops: np.einsum(subs, *ops, optimize=True)

    for _n in ("einsum_bij_bjk_bik", "einsum_bhqd_bhkd_bhqk", "einsum_ij_ij_i"):
        NUMPY[_n] = einsum(_n)
    try:  # NumPy has no erf; SciPy's, where installed
        from scipy.special import erf
        NUMPY["erf"] = erf
    except ImportError:
        pass

    # NumExpr: infix operators and the functions it has, by name.
    INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**", "mod": "%",
             "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=",
             "and_": "&", "or_": "|"}
    NEFUNC = {"exp": "exp", "log": "log", "log1p": "log1p", "expm1": "expm1", "sqrt": "sqrt",
              "sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh", "abs": "abs",
              "atan2": "arctan2", "where": "where"}
    NEFORM = {"neg": "(-{0})", "square": "({0}*{0})", "recip": "(1/{0})", "rsqrt": "(1/sqrt({0}))",
              "sigmoid": "(1/(1+exp(-{0})))", "not_": "(~{0})"}
    VIEWS = {"T", "rev", "step"}

    import ast

    def to_python(expr):
        return re.sub(r"\b(not|and|or)\(", r"\1_(", expr)

    def numexpr_of(expr, inputs):
        """Returns (text, locals) of the expression in NumExpr's syntax,
        views of inputs made outside it, or None when it does not translate."""
        src = to_python(expr)
        if ";" in src:
            return None
        tree = ast.parse(src, mode="eval").body
        local, views = dict(inputs), {}

        def lit(n):
            return isinstance(n, ast.Constant) or (
                isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant))

        def tr(n, top):
            if isinstance(n, ast.Name):
                return n.id
            if lit(n):
                return ast.unparse(n)
            f, a = n.func.id, n.args
            if f in VIEWS and all(isinstance(x, ast.Name) or lit(x) for x in a):
                key = f"v{len(views)}"
                views[key] = eval(compile(ast.Expression(n), "<view>", "eval"), dict(NUMPY), dict(inputs))
                return key
            if f in INFIX and len(a) == 2:
                return f"({tr(a[0], False)}{INFIX[f]}{tr(a[1], False)})"
            if f in NEFUNC:
                return f"{NEFUNC[f]}({', '.join(tr(x, False) for x in a)})"
            if f in NEFORM and len(a) == 1:
                return NEFORM[f].format(tr(a[0], False))
            if f in ("sum", "prod") and top and len(a) <= 2:
                ax = f", axis={ast.unparse(a[1])}" if len(a) == 2 else ""
                return f"{f}({tr(a[0], False)}{ax})"
            raise KeyError(f)

        try:
            text = tr(tree, True)
        except KeyError:
            return None
        local.update(views)
        return text, local

    def compile_numpy(expr, env):
        stmts = [s.strip() for s in to_python(expr).split(";")]
        body = "".join(f"    {s}\n" for s in stmts[:-1]) + f"    return {stmts[-1]}\n"
        g = dict(NUMPY)
        g.update(env)
        exec(compile("def _f():\n" + body, "<workload>", "exec"), g)
        return g["_f"]

    def make(spec_dtype, shape, lo, hi, seed):
        rng = np.random.default_rng(seed)
        u = lo + (hi - lo) * rng.random(shape)
        if spec_dtype == "bool":
            return u >= 0.5
        if spec_dtype in ("i32", "i64"):
            return np.floor(u).astype(dtypes[spec_dtype])
        return u.astype(dtypes[spec_dtype])

    def timeit(f):
        f()
        n, dt = 1, 0.0
        while True:
            t = time.perf_counter()
            for _ in range(n):
                f()
            dt = time.perf_counter() - t
            if dt >= 0.002 or n >= 1 << 20:
                break
            n *= 8
        batches, total = [dt / n], dt
        while (len(batches) < 3 or total < args.min_time) and total < max(1.0, args.min_time):
            t = time.perf_counter()
            for _ in range(n):
                f()
            dt = time.perf_counter() - t
            total += dt
            batches.append(dt / n)
        batches.sort()
        return batches[len(batches) // 2] * 1e9

    work = [w for w in parse_list(args.list) if re.search(args.filter, w[0])]
    last = {}
    for i, (_, inputs, _) in enumerate(work):
        for inp in inputs:
            last[inp[5]] = i
    cache = {}

    def prepare(name, inputs, expr):  # [(library, function)] of one workload
        env = {}
        for (iname, dt, shape, lo, hi, spec) in inputs:
            if spec not in cache:
                cache[spec] = make(dt, shape, lo, hi, zlib.crc32(spec.encode()))
            env[iname] = cache[spec]
        try:
            f = compile_numpy(expr, env)
            want = f()
        except NameError:  # a function NumPy lacks (erf without SciPy)
            return []
        runs = [("numpy", f)]
        tr = numexpr_of(expr, env)
        if tr is not None:
            text, local = tr
            g = lambda: ne.evaluate(text, local_dict=local)  # noqa: E731
            try:
                got = g()
                same = (got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
                        and np.allclose(got, want, rtol=1e-3, atol=1e-6, equal_nan=True))
            except Exception:  # an op NumExpr lacks for these dtypes
                same = False
            if same:
                runs.append(("numexpr", g))
        return runs

    # Windows of WINDOW workloads, as exec/cpu's BenchmarkSuite: with
    # --rounds R each window's workloads are timed one after another R
    # times, one line per reading; bench/cpujoin takes the median.
    for lo in range(0, len(work), WINDOW):
        hi = min(lo + WINDOW, len(work))
        ready = [(name, prepare(name, inputs, expr)) for (name, inputs, expr) in work[lo:hi]]
        for _ in range(args.rounds):
            for name, runs in ready:
                for lib, f in runs:
                    print(f"peer {name} {lib} {timeit(f):.0f}", flush=True)
        ready = None
        for spec, i in last.items():
            if i < hi:
                cache.pop(spec, None)

if __name__ == "__main__":
    main()
