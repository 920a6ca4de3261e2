# Parameter groups written for the test as torchtitan's OptimizersContainer.Config takes them
# (torchtitan/components/optimizer/optimizer.py:41-70, :103-150 at b5bcd76c): Muon on the
# matrices and AdamW on the rest, as the kimi_k2_7 configurations group them, and the model
# a preset's (Llama 3 8B), so that the optimizer alone is refused.
from torchtitan.components.optimizer import OptimizersContainer, ParamGroupConfig
from torchtitan.config import TrainingConfig
from torchtitan.models.llama3 import model_registry
from torchtitan.trainer import Trainer


def llama3_8b_muon() -> Trainer.Config:
    return Trainer.Config(
        model_spec=model_registry("8B"),
        optimizer=OptimizersContainer.Config(
            param_groups=[
                ParamGroupConfig(pattern=r"layers\..*\.weight$", optimizer_name="DistMuon"),
                ParamGroupConfig(pattern=r".*", optimizer_name="AdamW"),
            ],
        ),
        training=TrainingConfig(
            num_tokens_per_microbatch_per_dp_rank=8192,
            max_context_length=8192,
            steps=1_000,
        ),
    )


def llama3_8b_groups() -> Trainer.Config:
    config = llama3_8b_muon()
    config.optimizer = OptimizersContainer.Config(
        param_groups=[ParamGroupConfig(pattern=r".*", optimizer_name="AdamW")],
    )
    return config
