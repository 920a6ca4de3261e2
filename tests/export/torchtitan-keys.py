#!/usr/bin/env python3
"""torchtitan's job-config keys with their kinds, read from torchtitan/config/job_config.py
without importing it: the fields of JobConfig's dataclasses, nested as the TOML tables
a job file writes them ([training] local_batch_size, [quantize.linear.float8]
recipe_name, ...).

    python3 tests/export/torchtitan-keys.py TORCHTITAN_CHECKOUT > tests/export/torchtitan-keys.txt

Each output line: TABLE.KEY KIND, KIND one of bool, int, float, str, list, or
str:A,B,... for a Literal of those strings; "float | int" is float; Optional[X] is X;
"list[str] | str" is list/str.
"""
import ast
import os
import sys

with open(os.path.join(sys.argv[1], "torchtitan/config/job_config.py")) as f:
    tree = ast.parse(f.read())
classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}


def kind(t):
    if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
        parts = []
        def flat(n):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
                flat(n.left); flat(n.right)
            else:
                parts.append(n)
        flat(t)
        ks = [kind(p) for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]
        ks = [k for k in ks]
        if set(ks) <= {"int", "float"} and "float" in ks:
            return "float"
        return ks[0] if len(set(ks)) == 1 else "/".join(sorted(set(ks)))
    if isinstance(t, ast.Name):
        return {"bool": "bool", "int": "int", "float": "float", "str": "str"}.get(t.id, "table:" + t.id)
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
        if t.value.id in ("list", "List"):
            return "list"
        if t.value.id == "Literal":
            elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
            return "str:" + ",".join(str(e.value) for e in elts)
        if t.value.id == "Optional":
            return kind(t.slice)
    return "str"


out = []


def walk(cname, prefix):
    for st in classes[cname].body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            k = kind(st.annotation)
            if k.startswith("table:") and k[6:] in classes:
                walk(k[6:], prefix + st.target.id + ".")
            else:
                out.append((prefix + st.target.id, k))


walk("JobConfig", "")
for name, k in sorted(out):
    print(name, k)
