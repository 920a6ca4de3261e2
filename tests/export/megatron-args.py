#!/usr/bin/env python3
"""Megatron-LM's command-line flags with their kinds, read from its source without
importing it (no torch needed): every parser.add_argument('--flag', ...) of
megatron/training/arguments.py, and the flags ArgumentGroupFactory
(megatron/training/argument_utils.py) makes of the dataclass fields of the configs
arguments.py hands it (TransformerConfig with its base ModelParallelConfig, and the
megatron/training/config classes): '--' + the field name with '_' as '-', a bool field
store_true when its default is False, '--no-NAME' and '--disable-NAME' when True,
'arg_names' of the field's argparse_meta taking precedence.

    python3 tests/export/megatron-args.py MEGATRON_LM_CHECKOUT > tests/export/megatron-args.txt

Each output line: FLAG KIND, KIND one of switch (no value), int, float, str, list
(one or more values, nargs '+' or '*').  A flag whose type is a function (e.g.
moe_freq_type) is str: it takes one word.
"""
import ast
import os
import sys

root = sys.argv[1]


def src(path):
    with open(os.path.join(root, path)) as f:
        return ast.parse(f.read())


flags = {}


def kind_of(type_node, nargs, action):
    if action in ("store_true", "store_false", "store_const", "count"):
        return "switch"
    if nargs in ("+", "*") or (isinstance(nargs, int) and nargs > 1):
        return "list"
    if isinstance(type_node, ast.Name) and type_node.id in ("int", "float", "str"):
        return type_node.id
    return "str"


def const(node):
    return node.value if isinstance(node, ast.Constant) else None


# 1. explicit add_argument calls of arguments.py
for node in ast.walk(src("megatron/training/arguments.py")):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
        names = [const(a) for a in node.args if isinstance(const(a), str) and const(a).startswith("--")]
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        k = kind_of(kw.get("type"), const(kw["nargs"]) if "nargs" in kw else None,
                    const(kw["action"]) if "action" in kw else None)
        for n in names:
            flags[n] = k

# 2. dataclass fields through ArgumentGroupFactory
CLASSES = {
    "megatron/core/model_parallel_config.py": ["ModelParallelConfig"],
    "megatron/core/transformer/transformer_config.py": ["TransformerConfig"],
}
cfgdir = os.path.join(root, "megatron/training/config")
if os.path.isdir(cfgdir):
    for fn in sorted(os.listdir(cfgdir)):
        if fn.endswith(".py"):
            CLASSES["megatron/training/config/" + fn] = None  # every dataclass there


def ann_kind(ann, default):
    t = ann
    # Optional[X] / X | None
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "Optional":
        t = t.slice
    if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
        if isinstance(t.right, ast.Constant) and t.right.value is None:
            t = t.left
        elif isinstance(t.left, ast.Constant) and t.left.value is None:
            t = t.right
    if isinstance(t, ast.Name) and t.id == "bool":
        return "switch", const(default) is not False and const(default) is not None and const(default)
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in ("list", "List"):
        return "list", None
    if isinstance(t, ast.Name) and t.id in ("int", "float", "str"):
        return t.id, None
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "Literal":
        return "str", None
    return "str", None


for path, wanted in CLASSES.items():
    for cls in ast.walk(src(path)):
        if not isinstance(cls, ast.ClassDef) or (wanted is not None and cls.name not in wanted):
            continue
        for st in cls.body:
            if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)):
                continue
            name, default, meta_names, meta_kind = st.target.id, st.value, None, None
            if name.startswith("_"):
                continue
            if isinstance(default, ast.Call) and getattr(default.func, "id", getattr(default.func, "attr", "")) == "field":
                kws = {k.arg: k.value for k in default.keywords if k.arg}
                if "init" in kws and const(kws["init"]) is False:
                    continue
                default = kws.get("default")
                md = kws.get("metadata")
                if isinstance(md, ast.Dict):
                    for mk, mv in zip(md.keys, md.values):
                        if const(mk) == "argparse_meta" and isinstance(mv, ast.Dict):
                            m = {const(a): b for a, b in zip(mv.keys, mv.values)}
                            if isinstance(m.get("arg_names"), ast.List):
                                meta_names = [const(e) for e in m["arg_names"].elts]
                            if "type" in m or "nargs" in m or "action" in m:
                                meta_kind = kind_of(m.get("type"), const(m["nargs"]) if "nargs" in m else None,
                                                    const(m["action"]) if "action" in m else None)
            k, true_default = ann_kind(st.annotation, default)
            if meta_kind:
                k = meta_kind
            if meta_names:
                names = meta_names
            elif k == "switch" and true_default:
                names = ["--no-" + name.replace("_", "-"), "--disable-" + name.replace("_", "-")]
            else:
                names = ["--" + name.replace("_", "-")]
            for n in names:
                flags.setdefault(n, k)

for n in sorted(flags):
    print(n, flags[n])
