# NVIDIA-NeMo/Megatron-Bridge at commit 067f987df03b8355b03192d88d70f1709fedf51a: the example of
# src/megatron/bridge/recipes/gpt/h100/vanilla_gpt.py (its docstring, lines 24-28), written out
uv run python scripts/training/run_recipe.py \
    --recipe vanilla_gpt_pretrain_config \
    model.num_layers=2 model.hidden_size=256 model.num_attention_heads=4 \
    model.activation_func=silu model.gated_linear_unit=true \
    train.train_iters=10 train.global_batch_size=8 train.micro_batch_size=2
