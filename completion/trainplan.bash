# completion/trainplan.bash -- bash completion for trainplan: subcommands, their
# options, plan keys after --set, presets after --set model.preset= and friends,
# the tables of step, search, presets and calibrate after --table, and catalog
# names after get, table and data.  The names come from trainplan
# itself (trainplan presets ... --format csv, get/table/data --list), so the lists
# never go stale.  The values of an enum or yes/no key complete after --set KEY=.
# Installed as share/bash-completion/completions/trainplan.
#
# bash splits the line at the characters of COMP_WORDBREAKS, '=' among them by default,
# and completes only the text after the last one: "--set parallel.schedule=zb" arrives
# as the words --set, parallel.schedule, =, zb.  The KEY=VALUE word is joined again (what
# bash-completion's _get_comp_words_by_ref -n = does) and the replies lose the KEY= that
# bash keeps on the line.

_trainplan_names() {
	# first CSV column of `trainplan ARGS --format csv`, without the header
	"${COMP_WORDS[0]}" "$@" --format csv 2>/dev/null | sed -e 1d -e 's/,.*//'
}

# the values of an enum or yes/no KEY, from the allowed column of `trainplan presets keys`
_trainplan_values() {
	"${COMP_WORDS[0]}" presets keys --format csv 2>/dev/null |
		awk -F, -v k="$1" '$1 == k && ($2 == "enum" || $2 == "bool") { gsub(/ \| /, "\n", $3); print $3 }'
}

_trainplan() {
	local cur prev cmd words cword=$COMP_CWORD eq=
	cur=${COMP_WORDS[cword]}
	prev=${COMP_WORDS[cword-1]}
	cmd=${COMP_WORDS[1]}
	# KEY= split off by COMP_WORDBREAKS: the cursor right after '=', or on the value
	if [ "$cur" = "=" ] && [ "$cword" -ge 2 ]; then
		eq="${COMP_WORDS[cword-1]}="; cur=$eq; prev=${COMP_WORDS[cword-2]}
	elif [ "$cword" -ge 3 ] && [ "$prev" = "=" ]; then
		eq="${COMP_WORDS[cword-2]}="; cur=$eq$cur; prev=${COMP_WORDS[cword-3]}
	fi
	local commands="memory comm step run bubble schedule search get table data presets validate report compare export import help calibrate"
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi
	case $prev in
	--plan|-o|--dir|--share|--write-plan)
		COMPREPLY=($(compgen -f -- "$cur")); return;;
	--format)
		COMPREPLY=($(compgen -W "text csv json md tsv gantt" -- "$cur")); return;;
	--schedule)
		COMPREPLY=($(compgen -W "gpipe 1f1b interleaved zb-h1 zb-h2 dualpipe" -- "$cur")); return;;
	--objective)
		COMPREPLY=($(compgen -W "time cost memory effective-days total-cost" -- "$cur")); return;;
	--for)
		COMPREPLY=($(compgen -W "megatron nemo torchtitan deepspeed" -- "$cur")); return;;
	--from)
		COMPREPLY=($(compgen -W "megatron torchtitan deepspeed nemo" -- "$cur")); return;;
	--table)
		# the tables a command prints as text, one of which CSV and TSV carry
		case $cmd in
		step) words="step step-summary step-moe";;
		search) words="top breakdown axes rejects";;
		presets) words="models gpus clusters recipes stacks keys";;
		calibrate) words="calibration calibration-runs";;
		*) words="";;
		esac
		COMPREPLY=($(compgen -W "$words" -- "$cur")); return;;
	--holdout)
		COMPREPLY=($(compgen -W "every:3 none kfold:5 loo" -- "$cur")); return;;
	--measurements|--megatron-log|--write-stack)
		COMPREPLY=($(compgen -f -- "$cur")); return;;
	--set)
		case $cur in
		model.preset=*) words=$(_trainplan_names presets models | sed 's/^/model.preset=/');;
		cluster.preset=*) words=$(_trainplan_names presets clusters | sed 's/^/cluster.preset=/');;
		cluster.gpu=*) words=$(_trainplan_names presets gpus | sed 's/^/cluster.gpu=/');;
		training.recipe=*) words=$(_trainplan_names presets recipes | sed 's/^/training.recipe=/');;
		*=*) words=$(_trainplan_values "${cur%%=*}" | sed "s/^/${cur%%=*}=/");;
		*) words=$(_trainplan_names presets keys | sed 's/$/=/')
		   compopt -o nospace 2>/dev/null;;
		esac
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		[ -n "$eq" ] && COMPREPLY=("${COMPREPLY[@]#"$eq"}")
		return;;
	esac
	case $cmd in
	help) words=$commands;;
	get) words="$(_trainplan_names get --list) --list";;
	table) words="$(_trainplan_names table --list) --all --dir --list";;
	data) words="$(_trainplan_names data --list) --list";;
	presets) words="models gpus clusters recipes stacks keys --table";;
	step) words="--table";;
	calibrate) words="--measurements --megatron-log --skip-iterations --fit --holdout --write-stack --table";;
	memory) words="--require-fit";;
	bubble) words="--schedule --all --p --v --m";;
	schedule) words="--schedule --p --m --v --tf --tb --tw --p2p --first --last --unit";;
	search) words="--gpus --top --objective --vary --even --min-headroom --max-mb --max-cp --max-vpp --threads --no-recheck --all --stats --table --for --write-plan --offload-optimizer";;
	export) words="--for";;
	import) words="--from --gpus"; COMPREPLY=($(compgen -f -- "$cur"));;
	report) words="-o --no-pdf --share --compare"; COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur"));;
	esac
	COMPREPLY+=($(compgen -W "$words --plan --set --format --help" -- "$cur"))
}
complete -F _trainplan trainplan
