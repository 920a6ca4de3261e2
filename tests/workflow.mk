# tests/workflow.mk -- what a user meets first: the man pages, the bash completion,
# and an installed trainplan that builds a report from a folder outside the checkout.
#
#   check-man      both man pages clean under mandoc -Tlint (warnings and errors; the
#                  style note on a cross-reference to the sibling page, not installed
#                  while the lint runs, is left out)
#   check-install  make install into a temporary prefix and DESTDIR, trainplan report
#                  for a plan in a temporary folder, --version of both programs, the
#                  bash completion, then make uninstall leaves no file behind
#   check-compare  trainplan report --compare of the four shipped plans: its numbers are
#                  each plan's own trainplan get and trainplan compare values
#                  (tests/check-compare.sh)
#   check-progress the progress of a long trainplan search shows on a terminal only,
#                  never with stderr piped nor beside JSON or CSV (tests/check-progress.sh)
#   check-complete the tables of --table (step, search, presets, calibrate): the ones
#                  each command takes are those the bash and zsh completions offer and
#                  the man page names (tests/check-complete.sh)

.PHONY: check-man check-install check-complete check-compare check-progress
check-man:
	@mandoc -Tlint -W warning man/trainplan.1 man/trainplan-report.1 && echo "man: 2 pages clean"

check-install: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-install.sh "$(MAKE)"

check-complete: $(BUILD)/trainplan
	@sh tests/check-complete.sh $(BUILD)/trainplan

check-compare: $(BUILD)/trainplan $(BUILD)/trainplan-report
	@sh tests/check-compare.sh $(BUILD)/trainplan

check-progress: $(BUILD)/trainplan
	@sh tests/check-progress.sh $(BUILD)/trainplan

CHECKS += check-man check-install check-complete check-compare check-progress

# check-roundtrip  trainplan export then trainplan import gives the plan's split back,
#                  for Megatron-LM, torchtitan and DeepSpeed (tests/check-roundtrip.sh)
.PHONY: check-roundtrip
check-roundtrip: $(BUILD)/trainplan
	@sh tests/check-roundtrip.sh $(BUILD)/trainplan

CHECKS += check-roundtrip

# check-search-layout  an uneven layout the planner recommends is reproduced by the plan
#                      search --write-plan writes: step gives the search's simulated step
#                      time, export --for megatron the layout's flags
#                      (tests/check-search-layout.sh)
.PHONY: check-search-layout
check-search-layout: $(BUILD)/trainplan
	@sh tests/check-search-layout.sh $(BUILD)/trainplan

CHECKS += check-search-layout

# check-export-flags  every flag or key trainplan export writes is one its framework defines,
#                     with a value of its kind: Megatron-LM's arguments, Megatron-Bridge's
#                     keys, torchtitan's TOML keys and its current Python configuration's
#                     fields (--for torchtitan-py), DeepSpeed's config keys, each read
#                     from the framework's source at a pinned commit (tests/export/*.txt;
#                     tests/check-export-flags.sh)
.PHONY: check-export-flags
check-export-flags: $(BUILD)/trainplan
	@sh tests/check-export-flags.sh $(BUILD)/trainplan

CHECKS += check-export-flags

# check-readme-presets  README.md's lists of models, GPUs, clusters, recipes, stacks and
#                       pipeline schedules are those of trainplan presets
#                       (tests/readme-presets.sh); make readme-presets rewrites them
.PHONY: check-readme-presets readme-presets
check-readme-presets: $(BUILD)/trainplan
	@sh tests/readme-presets.sh $(BUILD)/trainplan

readme-presets: $(BUILD)/trainplan
	@sh tests/readme-presets.sh $(BUILD)/trainplan write

CHECKS += check-readme-presets

# check-options  the lists of commands and options outside the program are the options
#                table's (cli/options.c): the generated parts of both completion files,
#                of man/trainplan.1 and of README.md are what trainplan --dump-options
#                writes, and every option of the table is read by its command's parser
#                (tests/options.sh); make options rewrites the parts
.PHONY: check-options options
check-options: $(BUILD)/trainplan
	@sh tests/options.sh $(BUILD)/trainplan

options: $(BUILD)/trainplan
	@sh tests/options.sh $(BUILD)/trainplan write

CHECKS += check-options

# check-recipes  docs/architecture.md §9's recipes kept: every schedule, stack, GPU preset
#                and plan key has the places its recipe names that no build would miss
#                (docs/references.md, efficiency.stack's description, a unit test, a
#                bad-input case; tests/recipes.sh, tests/recipes-gaps.txt)
.PHONY: check-recipes
check-recipes: $(BUILD)/trainplan
	@sh tests/recipes.sh $(BUILD)/trainplan

CHECKS += check-recipes
