#!/usr/bin/env python3
"""Megatron-Bridge's ConfigContainer override keys with their kinds, read without
importing either project: the dataclass fields of the classes each section of
ConfigContainer (src/megatron/bridge/training/config.py) holds, with their bases in
Megatron-LM at the commit Megatron-Bridge pins in 3rdparty/Megatron-LM.

    python3 tests/export/megatron-bridge-keys.py BRIDGE_CHECKOUT MEGATRON_LM_CHECKOUT \\
        > tests/export/megatron-bridge-keys.txt

Each output line: SECTION.KEY KIND, KIND one of bool, int, float, str, list, any (a
union or an object the override sets by name); mixed_precision is a recipe name (str).
"""
import ast
import os
import sys

bridge, mlm = sys.argv[1], sys.argv[2]
SOURCES = {
    "model": [(bridge, "src/megatron/bridge/models/gpt_provider.py", "GPTModelProvider"),
              (mlm, "megatron/core/transformer/transformer_config.py", "TransformerConfig"),
              (mlm, "megatron/core/transformer/transformer_config.py", "MLATransformerConfig"),
              (mlm, "megatron/core/model_parallel_config.py", "ModelParallelConfig")],
    "train": [(bridge, "src/megatron/bridge/training/config.py", "TrainingConfig"),
              (mlm, "megatron/training/config/training_config.py", "TrainingConfig")],
    "optimizer": [(bridge, "src/megatron/bridge/training/config.py", "OptimizerConfig"),
                  (mlm, "megatron/core/optimizer/optimizer_config.py", "OptimizerConfig")],
    "ddp": [(bridge, "src/megatron/bridge/training/config.py", "DistributedDataParallelConfig"),
            (mlm, "megatron/core/distributed/distributed_data_parallel_config.py", "DistributedDataParallelConfig")],
    "dist": [(bridge, "src/megatron/bridge/training/config.py", "DistributedInitConfig"),
             (mlm, "megatron/training/config/common_config.py", "DistributedInitConfig")],
    "dataset": [(bridge, "src/megatron/bridge/training/config.py", "GPTDatasetConfig"),
                (mlm, "megatron/core/datasets/gpt_dataset.py", "GPTDatasetConfig"),
                (mlm, "megatron/core/datasets/blended_megatron_dataset_config.py", "BlendedMegatronDatasetConfig")],
}


def kind(t):
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "Optional":
        return kind(t.slice)
    if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
        parts = []
        def flat(x):
            if isinstance(x, ast.BinOp) and isinstance(x.op, ast.BitOr):
                flat(x.left); flat(x.right)
            elif not (isinstance(x, ast.Constant) and x.value is None):
                parts.append(kind(x))
        flat(t)
        return parts[0] if len(set(parts)) == 1 else "any"
    if isinstance(t, ast.Name):
        return {"bool": "bool", "int": "int", "float": "float", "str": "str"}.get(t.id, "any")
    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
        if t.value.id in ("list", "List"):
            return "list"
        if t.value.id == "Literal":
            return "str"
        if t.value.id == "Union":
            return "any"
    return "any"


keys = {"mixed_precision": "str"}
for section, srcs in SOURCES.items():
    for root, path, cname in srcs:
        with open(os.path.join(root, path)) as f:
            tree = ast.parse(f.read())
        for c in tree.body:
            if isinstance(c, ast.ClassDef) and c.name == cname:
                for st in c.body:
                    if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and not st.target.id.startswith("_"):
                        keys.setdefault(section + "." + st.target.id, kind(st.annotation))
for k in sorted(keys):
    print(k, keys[k])
