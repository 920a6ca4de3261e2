# pytorch/torchtitan at commit 238fa9953e4aec2a62582121564273d7cbb1e9f1: docs/debugging.md lines 109-112 (8-way TP + 2-way FSDP)
# Debug 8-way TP + 2-way FSDP on a single GPU
NGPU=16 COMM_MODE="local_tensor" ./run_train.sh \
  --parallelism.tensor_parallel_degree 8 \
  --parallelism.data_parallel_shard_degree 2
