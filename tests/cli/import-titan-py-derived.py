# A configuration written as torchtitan's README suggests (torchtitan/config/README.md at
# b5bcd76c): a base function, one derived from it, a helper taking the config, a subclass.
from torchtitan.components.optimizer import default_adamw
from torchtitan.config import ParallelismConfig, TrainingConfig
from torchtitan.models.deepseek_v3 import model_registry
from torchtitan.trainer import Trainer

CONTEXT = 4_096


class MyConfig(Trainer.Config):
    pass


def _base(backend: str = "standard") -> Trainer.Config:
    parallelism = ParallelismConfig(
        tensor_parallel_degree=4,
        enable_sequence_parallel=False,
        expert_parallel_degree=8,
        fsdp_reshard_after_forward="never",
    )
    return MyConfig(
        model_spec=model_registry("671B", moe_comm_backend=backend),
        optimizer=default_adamw(lr=2.2e-4),
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=2 * CONTEXT,
            max_context_length=CONTEXT,
            num_tokens_per_train_step=1024 * CONTEXT,
            steps=20_000,
        ),
        parallelism=parallelism,
        activation_checkpoint=None,
    )


def _more_stages(config: Trainer.Config) -> None:
    config.parallelism.pipeline_parallel_degree = 2
    config.parallelism.num_pp_microbatches = 4


def deepseek_v3_tp4_pp2() -> Trainer.Config:
    """The base with two pipeline stages and HybridEP."""
    config = _base(backend="hybridep")
    _more_stages(config)
    config.training.steps = 1000
    return config
