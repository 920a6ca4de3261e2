#!/usr/bin/env python3
"""The fields of current torchtitan's Python configuration with their kinds, read without
importing it: Trainer.Config's fields (torchtitan/trainer.py), those of TrainingConfig,
ParallelismConfig and CompileConfig (torchtitan/config/configs.py), and the parameters of
model_registry of the llama3 and deepseek_v3 families (torchtitan/models/FAMILY/__init__.py).

    python3 tests/export/torchtitan-py-fields.py TORCHTITAN_CHECKOUT COMMIT > tests/export/torchtitan-py-fields.txt

Each output line: NAME KIND.  Trainer.Config.FIELD names the class its value is (TrainingConfig,
...; other: any); training.FIELD, parallelism.FIELD and compile.FIELD are the dataclass
fields; model_registry.FAMILY.PARAM the registry's parameters.  KIND is bool, int, float,
str, list, any, or str:A,B,... for a Literal of those strings; "float | int" is float,
"X | None" is X.
"""
import ast
import os
import sys

root, commit = sys.argv[1], sys.argv[2]


def parse(path):
    with open(os.path.join(root, path)) as f:
        return ast.parse(f.read())


def kind(t):
    if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
        parts = []

        def flat(n):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
                flat(n.left)
                flat(n.right)
            else:
                parts.append(n)
        flat(t)
        ks = sorted({kind(p) for p in parts if not (isinstance(p, ast.Constant) and p.value is None)})
        if set(ks) == {"float", "int"}:
            return "float"
        return ks[0] if len(ks) == 1 else "/".join(ks)
    if isinstance(t, ast.Name):
        return {"bool": "bool", "int": "int", "float": "float", "str": "str"}.get(t.id, "any")
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
        if t.value.id in ("list", "List"):
            return "list"
        if t.value.id == "Literal":
            elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
            return "str:" + ",".join(str(e.value) for e in elts)
        if t.value.id == "Optional":
            return kind(t.slice)
    return "any"


out = []
configs = {c.name: c for c in parse("torchtitan/config/configs.py").body if isinstance(c, ast.ClassDef)}
for cls, sec in (("TrainingConfig", "training"), ("ParallelismConfig", "parallelism"), ("CompileConfig", "compile")):
    for st in configs[cls].body:
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            out.append((sec + "." + st.target.id, kind(st.annotation)))
trainer = [c for c in parse("torchtitan/trainer.py").body if isinstance(c, ast.ClassDef) and c.name == "Trainer"][0]
tcfg = [c for c in trainer.body if isinstance(c, ast.ClassDef) and c.name == "Config"][0]
for st in tcfg.body:
    if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
        a = st.annotation
        k = a.id if isinstance(a, ast.Name) and a.id in ("TrainingConfig", "ParallelismConfig", "CompileConfig") else "any"
        out.append(("Trainer.Config." + st.target.id, k))
for fam in ("llama3", "deepseek_v3"):
    for fn in parse("torchtitan/models/%s/__init__.py" % fam).body:
        if isinstance(fn, ast.FunctionDef) and fn.name == "model_registry":
            for a in fn.args.args:
                out.append(("model_registry.%s.%s" % (fam, a.arg), kind(a.annotation) if a.annotation else "any"))
print("# current torchtitan's configuration fields (NAME KIND), read from pytorch/torchtitan at")
print("# commit %s: torchtitan/config/configs.py," % commit)
print("# torchtitan/trainer.py (Trainer.Config) and torchtitan/models/{llama3,deepseek_v3}/__init__.py")
print("# (model_registry), written by")
print("#   python3 tests/export/torchtitan-py-fields.py CHECKOUT COMMIT > tests/export/torchtitan-py-fields.txt")
print("# tests/check-export-flags.sh checks export --for torchtitan-py against it.")
for name, k in sorted(out):
    print(name, k)
