/*
 * options.c -- the options of every subcommand, one table (cli_cmddocs): each
 * command's synopsis, what it does, its options with their meaning, default and the
 * values they take, and an example.  Everything that lists a command's options reads
 * it: the help page (help.c), the commands' parsers (cli_next, common.c), the
 * "unknown option" message with its "did you mean", and, through trainplan
 * --dump-options (dump.c), the man page's option lists, both completion files and
 * README.md's list of commands (make options rewrites them, make check-options fails
 * while one differs: tests/options.sh).
 *
 * An option's 'opt' is its word and the placeholder of its value ("--top K"; a word
 * without a placeholder is a flag), or an operand ("NAME", "FILE").  'values' says what
 * its value completes to: words separated by spaces, or @file (a file), @dir (a
 * folder), @ini (a plan file), @list (the names the command's --list prints) or
 * @schedules (the schedule table, calc/schedules.c); NULL: nothing to offer.  In a
 * meaning, {schedules} is the schedule table's names "a, b, c" and {schedules-or}
 * "a, b or c".
 */
#include "cli.h"

const struct cli_cmddoc cli_cmddocs[] = {
	{"memory", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] [--require-fit]",
	 "Memory per GPU for every pipeline stage: weights, gradients, master weights, optimizer\n"
	 "states, activations and overheads, the worst stage in detail and whether it fits.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"--require-fit", "exit with status 1 when a stage does not fit in the usable memory", "off", NULL}, {NULL, NULL, NULL, NULL}},
	 "trainplan memory --set parallel.tp=4 --set parallel.pp=8 --format json"},
	{"comm", "[--plan FILE] [--set KEY=VALUE]... [--format FMT]",
	 "Bytes and time per GPU per step, by parallel dimension (TP, CP, PP, DP) and network\n"
	 "tier (NVLink inside a node, the network between nodes).\n",
	 1, "text, csv, json, md, tsv", "text", {{NULL, NULL, NULL, NULL}},
	 "trainplan comm --set parallel.tp=16 --format csv"},
	{"step", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] [--table NAME]",
	 "Step time breakdown (compute, recomputation, TP communication, pipeline bubble,\n"
	 "exposed DP communication, optimizer), MFU and HFU, throughput, run time and cost.\n"
	 "JSON has every step.* and run.* catalog quantity in SI units.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"--table NAME", "print one table: step (the breakdown), step-summary (throughput, run totals) or step-moe (the parts of an MoE layer); CSV and TSV print one table per stream", "text and md: step, step-moe for an MoE model, step-summary; csv and tsv: step", "step step-summary step-moe"},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan step --plan plans/default.ini --format md"},
	{"run", "[--plan FILE] [--set KEY=VALUE]... [--format FMT]",
	 "The run as it will really go: checkpoint size and write time, the job's mean time\n"
	 "between failures, the checkpoint interval (Young 1974, Daly 2006), goodput, effective\n"
	 "days and GPU-hours, energy, its cost and the cost per million tokens ([run] keys).\n",
	 1, "text, csv, json, md, tsv", "text", {{NULL, NULL, NULL, NULL}},
	 "trainplan run --set run.failure_rate=1e-5 --format md"},
	{"bubble", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] [--schedule NAME] [--all]\n"
	           "                        [--p LIST] [--v LIST] [--m LIST]",
	 "The pipeline bubble of the plan's schedule at its p, m and v (closed form and event\n"
	 "simulator), or curves of the bubble fraction against m when a list is given.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"--schedule NAME", "evaluate this schedule at the plan's p and m: {schedules}", "the plan's parallel.schedule", "@schedules"},
	  {"--all", "compare every schedule side by side", "off", NULL},
	  {"--p LIST", "comma-separated pipeline depths of the curves", "the plan's parallel.pp", NULL},
	  {"--v LIST", "comma-separated virtual stages per GPU (1 = 1F1B)", "the plan's parallel.vpp", NULL},
	  {"--m LIST", "comma-separated micro-batch counts of the curves", "the plan's micro-batches", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan bubble --p 4,8 --v 1,2 --m 8,16,32 --format tsv"},
	{"schedule", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] [--schedule NAME]\n"
	             "                          [--p N] [--m N] [--v N] [--tf T] [--tb T] [--tw T] [--p2p T]\n"
	             "                          [--first F,B,W] [--last F,B,W] [--unit T] [--bench N]",
	 "The op-by-op timeline of a pipeline schedule from the event simulator: one row per\n"
	 "forward, backward and weight-gradient op, or an ASCII Gantt chart.\n",
	 1, "tsv, gantt, text, csv, json, md", "tsv",
	 {{"--schedule NAME", "{schedules-or}", "the plan's parallel.schedule", "@schedules"},
	  {"--p N", "pipeline stages", "the plan's parallel.pp", NULL},
	  {"--m N", "micro-batches", "the plan's micro-batches", NULL},
	  {"--v N", "virtual stages per GPU", "the plan's parallel.vpp", NULL},
	  {"--tf T", "forward time of one micro-batch on one stage (e.g. 1, 2.5 ms, 300 us)", "1 s", NULL},
	  {"--tb T", "backward (input-gradient) time", "1 s", NULL},
	  {"--tw T", "weight-gradient time", "1 s", NULL},
	  {"--p2p T", "time of one point-to-point transfer between stages", "0", NULL},
	  {"--first F,B,W", "extra forward, backward, weight times of the first stage (embedding)", "0,0,0", NULL},
	  {"--last F,B,W", "extra times of the last stage (LM head and loss)", "0,0,0", NULL},
	  {"--unit T", "seconds per cell of --format gantt", "the shortest op", NULL},
	  {"--bench N", "time N simulations and print the best (for make bench)", "off", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan schedule --schedule 1f1b --p 4 --m 8 --format gantt"},
	{"search", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] [--gpus N|A-B|A,B,...]\n"
	           "                        [--top K] [--objective OBJ] [--vary recipe] [--even]\n"
	           "                        [--min-headroom BYTES] [--max-mb N] [--max-cp N] [--max-vpp N]\n"
	           "                        [--threads N] [--no-recheck] [--all] [--stats] [--table NAME]\n"
	           "                        [--for FRAMEWORK] [--write-plan FILE] [--offload-optimizer F]",
	 "Every valid split of the plan's model over its cluster: the rejects by reason, the\n"
	 "best K with their breakdowns and the runner-up on each axis.  Where pp does not divide\n"
	 "the layers, Megatron-Core's account_embedding/account_loss and first/last stage rules\n"
	 "are tried too; column 'split' names the plan keys that reproduce an uneven placement.\n"
	 "The schedules searched are plan.framework's (default: efficiency.stack's framework;\n"
	 "--for sets another).  The recommendation: of all that leave plan.memory_margin of the\n"
	 "memory free, the simplest within plan.pick_band's band (validation.band by default) of\n"
	 "the fastest of them, every split in the band read (no CP\n"
	 "below 8,192 tokens, no more ZeRO than the framework's recipes, fewer stages, less CP,\n"
	 "the framework's default schedule; the split the report and a plan without a split\n"
	 "take).  Exit status 1 when no configuration fits.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"--gpus N|A-B|A,B,...", "GPU counts to search; A-B doubles from A to B", "the plan's GPU count", NULL},
	  {"--top K", "how many of the best configurations to show", "10", NULL},
	  {"--objective OBJ", "rank by time (step time), cost, memory, effective-days (wall time with checkpoints and failures) or total-cost (its GPU-hours and energy)", "time", "time cost memory effective-days total-cost"},
	  {"--vary recipe", "also try every training recipe", "the plan's recipe only", "recipe"},
	  {"--even", "only splits whose stages hold equal numbers of layers", "uneven splits allowed", NULL},
	  {"--min-headroom BYTES", "memory each GPU must keep free, e.g. 8 GB or 4 GiB", "0", NULL},
	  {"--max-mb N", "largest micro-batch size tried", "8", NULL},
	  {"--max-cp N", "largest context-parallel degree tried", "16", NULL},
	  {"--max-vpp N", "largest number of virtual stages tried", "8", NULL},
	  {"--threads N", "worker threads", "2, and 1 for a grid of under 2 M leaves", NULL},
	  {"--no-recheck", "skip re-evaluating the winners through the full model", "recheck", NULL},
	  {"--all", "write every configuration (csv for spreadsheets)", "off", NULL},
	  {"--stats", "print only the counts and the elapsed time as JSON", "off", NULL},
	  {"--table NAME", "csv, md and tsv: which table, top, breakdown, axes or rejects (one table per stream)", "top", "top breakdown axes rejects"},
	  {"--for FRAMEWORK", "only what megatron, nemo, torchtitan or deepspeed runs: its schedules, ZeRO stages and degrees", "every configuration", "megatron nemo torchtitan deepspeed"},
	  {"--write-plan FILE", "write the recommendation as a plan file (the plan's lines and its whole split), ready for export", "off", "@file"},
	  {"--offload-optimizer F", "also try each split with share F of the optimizer states on the host (training.offload_optimizer; needs cluster.cpu_optimizer_rate)", "the plan's training.offload_optimizer", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan search --gpus 512-2048 --top 5 --objective cost"},
	{"get", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] NAME... | --list",
	 "Catalog quantities by name, with their units; every number of the report is one.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"NAME", "a catalog quantity, e.g. memory.total or step.mfu", NULL, "@list"},
	  {"--list", "list every quantity with its unit and meaning", "off", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan get memory.total step.mfu --format json"},
	{"table", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] NAME [KEY=VALUE]... | --all [--dir DIR] | --list",
	 "A catalog table by name, with its arguments as KEY=VALUE; --all writes every table\n"
	 "to DIR/NAME.EXT, each file written whole or not at all.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"NAME", "a catalog table (--list shows them)", NULL, "@list"},
	  {"KEY=VALUE", "an argument of the table", "the table's own defaults", NULL},
	  {"--all", "write every table, one file each", "off", NULL},
	  {"--dir DIR", "folder of --all", "output/tables", "@dir"},
	  {"--list", "list the tables with their arguments", "off", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan table memory-stages --format md"},
	{"data", "[--plan FILE] [--set KEY=VALUE]... [--format FMT] NAME [KEY=VALUE]... | --all [--dir DIR] | --list",
	 "A catalog dataset by name, in SI values with one header line of column names, as\n"
	 "the figures' gnuplot scripts read it.\n",
	 1, "tsv, text, csv, json, md", "tsv",
	 {{"NAME", "a catalog dataset (--list shows them)", NULL, "@list"},
	  {"KEY=VALUE", "an argument of the dataset", "the dataset's own defaults", NULL},
	  {"--all", "write every dataset, one file each", "off", NULL},
	  {"--dir DIR", "folder of --all", "output/tables", "@dir"},
	  {"--list", "list the datasets with their arguments", "off", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan data bubble-curves > bubble.tsv"},
	{"presets", "[--format FMT] [--table KIND] [models|gpus|clusters|recipes|stacks|keys]...",
	 "The built-in presets (models, GPUs, clusters, training recipes, software stacks) with\n"
	 "their sources, and every plan key with its type, range and meaning.  JSON holds each\n"
	 "table by kind.\n",
	 2, "text, csv, json, md, tsv", "text",
	 {{"KIND", "models, gpus, clusters, recipes, stacks or keys", "every kind but keys", "models gpus clusters recipes stacks keys"},
	  {"--table KIND", "print one table; CSV and TSV print one table per stream", "csv and tsv: the first kind named", "models gpus clusters recipes stacks keys"},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan presets gpus --format csv"},
	{"validate", "[--set KEY=VALUE]... [--format FMT]",
	 "Published training runs through the time model with one set of defaults: predicted\n"
	 "against published, with the error.  Exit status 1 when a row misses by more than 15%.\n",
	 2, "text, csv, json, md, tsv", "text", {{NULL, NULL, NULL, NULL}},
	 "trainplan validate --set efficiency.gemm=0.7"},
	{"calibrate", "--measurements FILE.csv | --megatron-log FILE [--skip-iterations N] --fit KEY[:LO:HI][,KEY]... [--holdout RULE] [--write-stack FILE] [--table NAME] [--plan FILE] [--set KEY=VALUE]... [--format FMT]",
	 "Efficiency keys fitted to measured runs by bounded least squares on the relative errors,\n"
	 "with each value's uncertainty, every run's error, and the error on the runs kept out of\n"
	 "the fit.  CSV columns: plan keys (parallel.tp, model.preset, ...), measured values\n"
	 "(step_time [s], tokens_per_s, tflops and hw_tflops per GPU, peak_memory [B]; any subset),\n"
	 "optional name and holdout (yes/no).  A Megatron-LM log gives one run of the plan.\n",
	 1, "text, csv, json, md, tsv", "text",
	 {{"--measurements FILE.csv", "measured runs, one per line ('-' reads standard input)", NULL, "@file"},
	  {"--megatron-log FILE", "Megatron-LM log: iteration times and max allocated memory", NULL, "@file"},
	  {"--skip-iterations N", "leave out the log lines averaging any of the first N iterations (compilation, NCCL set-up, allocator warm-up; 10 is where Megatron-LM starts profiling)", "10", NULL},
	  {"--fit KEY[:LO:HI],...", "the keys to fit, with bounds", "bounds 0.05 .. 1", NULL},
	  {"--holdout RULE", "every:N, none, kfold:K or loo", "every:3", "every:3 none kfold:5 loo"},
	  {"--write-stack FILE", "write the fitted values as a plan fragment to include", "off", "@file"},
	  {"--table NAME", "print one table: calibration (the fitted keys) or calibration-runs; CSV and TSV print one table per stream", "text and md: both; csv and tsv: calibration", "calibration calibration-runs"},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan calibrate --measurements runs.csv --fit efficiency.gemm,efficiency.attention"},
	{"compare", "A.ini B.ini [C.ini]... [--set KEY=VALUE]... [--format FMT]",
	 "Plans side by side: memory per GPU (worst stage) and whether it fits, step time, MFU,\n"
	 "bubble, bytes per GPU per step over all tiers and over the network, run days and cost;\n"
	 "then each later plan's difference from the first (B - A).  --set applies to every plan.\n",
	 2, "text, csv, json, md, tsv", "text",
	 {{"A.ini B.ini ...", "two plans or more ('-' for one of them reads standard input)", NULL, "@ini"}, {NULL, NULL, NULL, NULL}},
	 "trainplan compare plans/default.ini plans/llama2-70b-a100.ini --format md"},
	{"export", "--for FRAMEWORK [--plan FILE] [--set KEY=VALUE]...",
	 "Every setting the plan's memory and step time depend on, as the framework takes it:\n"
	 "Megatron-LM flags (commit d98e8a64) after a torchrun line, with the pipeline layout\n"
	 "(--pipeline-model-parallel-layout, first/last stage layers, the embedding and loss\n"
	 "counted), MLA, --moe-layer-freq, the optimizer and gradient dtypes, the overlap flags,\n"
	 "the rank order, FP8/MXFP8/NVFP4 and recomputation; NeMo 2's Megatron-Bridge\n"
	 "(commit 067f987d) run_recipe.py overrides with the whole architecture; a torchtitan\n"
	 "job TOML (--for torchtitan: the TOML job configs of torchtitan up to commit 238fa995;\n"
	 "[model] name and flavor, local_batch_size one forward's sequences, the first/last\n"
	 "stage weights), current torchtitan's config_registry.py function (--for torchtitan-py,\n"
	 "commit b5bcd76c: def trainplan_PLAN() -> Trainer.Config over model_registry(FLAVOR),\n"
	 "num_tokens_per_microbatch_per_dp_rank, num_pp_microbatches, SelectiveAC or FullAC;\n"
	 "import --from torchtitan reads it back) or a DeepSpeed config JSON (commit edaa722).\n"
	 "Every flag and key is one the framework's source defines (make check-export-flags).\n"
	 "A choice the framework cannot express (ZB-H2 in Megatron-LM, ZeRO-2 with DeepSpeed's\n"
	 "pipeline, a split torchtitan's rule cannot give) is an error at the plan key; what it\n"
	 "cannot say in its file (ZeRO-1 in torchtitan) is a note (a comment, or stderr for\n"
	 "JSON).\n",
	 1, "none (the framework's own)", NULL,
	 {{"--for FRAMEWORK", "megatron, nemo, torchtitan, torchtitan-py or deepspeed", NULL,
	   "megatron nemo torchtitan torchtitan-py deepspeed"}, {NULL, NULL, NULL, NULL}},
	 "trainplan export --for megatron --set parallel.pp=4 > launch.sh"},
	{"import", "--from FRAMEWORK FILE|- [--plan BASE] [--gpus N] [--config NAME] [--module NAME] [-- OVERRIDES]",
	 "A run as a plan (INI on stdout): a Megatron-LM launch script as the framework ships\n"
	 "them, a torchtitan job TOML (the TOML job configs of torchtitan up to commit 238fa995)\n"
	 "or its command-line overrides (run_train.sh --parallelism.tensor_parallel_degree 8 ...,\n"
	 "NGPU=N read), current torchtitan's Python configuration (commit b5bcd76c: a\n"
	 "config_registry.py function returning Trainer.Config, named with --config NAME as\n"
	 "torchtitan's --config, the model family with --module NAME unless the file imports\n"
	 "torchtitan.models.FAMILY's model_registry or is models/FAMILY/config_registry.py;\n"
	 "torchtitan's --SECTION.KEY VALUE overrides\n"
	 "after --; its literal keyword calls, config = OTHER() and config.a.b = VALUE are read,\n"
	 "a field left out is the dataclass default of configs.py, and what comes from running\n"
	 "code is an error where the plan needs it, a note where not), a DeepSpeed config JSON, or NeMo 2 /\n"
	 "Megatron-Bridge ConfigContainer overrides: run_recipe.py's KEY=VALUE words (one per\n"
	 "line or its command line, with --recipe and -tp/-pp/...) or the same sections as YAML\n"
	 "(model:, train:, optimizer:, ddp:, ...), over the vanilla_gpt recipe's defaults, or\n"
	 "the Llama 3.2 1B, Llama 3 8B, 70B and 3.1 405B, DeepSeek-V3 and Qwen3-30B-A3B H100\n"
	 "recipes' as their presets (Megatron-Bridge 067f987d, with the optimizer.exp_avg_dtype,\n"
	 "exp_avg_sq_dtype, main_grads_dtype and main_params_dtype overrides; other recipes are\n"
	 "refused).  Of a\n"
	 "script, the bash that\n"
	 "Megatron-LM's examples use is followed: NAME=VALUE, export, arrays and ${NAME[@]},\n"
	 "${NAME:-default} (a name the script does not set takes its default; listed in a note),\n"
	 "if [[ A == B ]] on known values; $1, the environment without a default, $(...), loops\n"
	 "and file tests are not, and a note or error says so.  The words after the first\n"
	 "*.py command are Megatron-LM's flags, those before it torchrun's (--nnodes,\n"
	 "--nproc-per-node).  An absent Megatron-LM flag means Megatron-LM's default (read at\n"
	 "commit d98e8a64 of NVIDIA/Megatron-LM): pp 1, ffn 4h, the vocabulary of --vocab-size or\n"
	 "the tokenizer padded to a multiple of --make-vocab-size-divisible-by 128 x tp.  Read\n"
	 "are the model, batch, parallel, recompute, MoE (--num-experts, --moe-router-topk,\n"
	 "--moe-layer-freq, --moe-router-enable-expert-bias, --moe-token-dispatcher-type,\n"
	 "--moe-flex-dispatcher-backend, --overlap-moe-expert-parallel-comm, --moe-router-fusion,\n"
	 "--moe-permute-fusion, --moe-expert-capacity-factor with\n"
	 "--moe-pad-expert-input-to-capacity), MLA (--multi-latent-attention and its ranks),\n"
	 "precision (--bf16, --fp16, --fp8-format, --fp8-recipe (mxfp8 included),\n"
	 "--fp8-param-gather, --fp4-format, --fp4-recipe, --fp4-param-gather,\n"
	 "--grad-reduce-in-bf16, --use-precision-aware-optimizer and its dtypes) flags and\n"
	 "--cross-entropy-loss-fusion; the overlap flags --overlap-grad-reduce,\n"
	 "--overlap-param-gather (efficiency.dp_overlap: absent 0, Megatron-LM's default) and\n"
	 "--tp-comm-overlap (efficiency.tp_overlap: no file carries the share hidden, so the base\n"
	 "plan's stays), --cp-comm-type with --hierarchical-context-parallel-sizes\n"
	 "(parallel.cp_comm, absent p2p); learning-rate, data, checkpoint, logging and other\n"
	 "router flags are listed in one note, and so are the flags of no plan key\n"
	 "(--tp-comm-overlap-cfg, --defer-embedding-wgrad-compute).  torchtitan: [model] name and flavor as a\n"
	 "preset, local_batch_size, data_parallel_shard_degree = -1 (FSDP over the GPUs the\n"
	 "other degrees leave), 10_000.  DeepSpeed: \"auto\" batch keys and a missing\n"
	 "train_batch_size from the base plan's GPUs; offload_optimizer to the CPU as\n"
	 "ZeRO-Offload (NVMe and offload_param are refused).  What the file does\n"
	 "not say stays the base plan's, which the output includes when --plan names it.  The\n"
	 "plan is loaded before it is printed.  Every problem is an error at FILE:LINE, all of\n"
	 "them in one run (exit status 2, nothing printed).\n",
	 0, "none (INI)", NULL,
	 {{"--from FRAMEWORK", "megatron, torchtitan, deepspeed or nemo", NULL, "megatron torchtitan deepspeed nemo"},
	  {"FILE", "a regular file of at most 4 MiB ('-' reads standard input)", NULL, "@file"},
	  {"--plan BASE", "the plan whose keys stay where the file says nothing", "the built-in plan", "@file"},
	  {"--gpus N", "the run's GPU count, over the launcher's or the base plan's", "the file's, else the base plan's", NULL},
	  {"--config NAME", "torchtitan: the Trainer.Config function of a Python configuration", "the file's only one", NULL},
	  {"--module NAME", "torchtitan: the model family (llama3, deepseek_v3, qwen3)", "the file's import of model_registry, or its folder models/NAME/", NULL},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan import --from megatron launch.sh > my.ini\n"
	 "  trainplan import --from torchtitan config_registry.py --module llama3 --config llama3_70b"},
	{"report", "[PLAN.ini | --plan FILE | --compare A.ini B.ini...] [--set KEY=VALUE]... [-o DIR] [--no-pdf] [--no-cache] [--png] [--jobs N] [--share DIR]",
	 "The full report of a plan: every figure (gnuplot), every table (CSV) and the chapters\n"
	 "rendered to DIR/report.html and DIR/report.pdf.  Works from any folder: the chapters\n"
	 "and figure scripts come from the installed share/trainplan, or the checkout.  The\n"
	 "figures and the tables are drawn in parallel; the chapters are rendered once all are.\n"
	 "make builds its report with this command.\n"
	 "With --compare, two plans or more side by side in DIR/compare.html and DIR/compare.pdf:\n"
	 "memory per GPU and per stage, step time by component, MFU, bubble, bytes per dimension\n"
	 "and tier, run days and cost, each with its difference from the first plan, and charts.\n",
	 1, "none (HTML and PDF)", NULL,
	 {{"PLAN.ini", "the plan, as --plan FILE ('-' reads standard input)", "the built-in plan", "@ini"},
	  {"-o DIR", "output folder: report.html, report.pdf, figures/, tables/, data/", "output", "@dir"},
	  {"--compare PLANS", "set two plans or more side by side (--set applies to each)", NULL, "+@ini"},
	  {"--no-pdf", "write only the HTML", "HTML and PDF", NULL},
	  {"--no-cache", "search anew: neither read nor write DIR/search-cache", "the searches of the last run of this build read back", NULL},
	  {"--png", "also draw every figure as DIR/figures/NAME.png", "SVG only, which the report reads", NULL},
	  {"--jobs N", "figure and table jobs run at a time (1 .. 64)", "the processors online", NULL},
	  {"--share DIR", "the folder holding chapters/ and figures/", "$TRAINPLAN_SHARE, else PREFIX/share/trainplan", "@dir"},
	  {NULL, NULL, NULL, NULL}},
	 "trainplan report my.ini -o my-report\n"
	 "  trainplan report --compare a.ini b.ini -o a-vs-b"},
};

const int cli_ncmddocs = (int)(sizeof cli_cmddocs / sizeof cli_cmddocs[0]);
