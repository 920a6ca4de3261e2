#!/bin/sh
# The man page and the completions know the tables of --table: for each command that takes
# it, the names the command itself accepts (from its refusal of an unknown one) must be
# exactly what the bash completion offers after --table, what the zsh completion lists, and
# each a name the man page's item for the command gives; the option itself must complete.
# After --set KEY=, the values of an enum key complete as bash splits the line at '='
# (COMP_WORDBREAKS): the words KEY, = and the value's start, the replies the bare values
# that the plan loader itself lists in its refusal of a wrong one; the zsh completion offers
# the same values after KEY= (where zsh is installed).
# usage: check-complete.sh TRAINPLAN
tp=$1; pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# bash completion of the words "$@" (the last one being completed), one reply a line
complete_bash() {
	bash -c '. completion/trainplan.bash; COMP_WORDS=("$0" "$@"); COMP_CWORD=$#; COMPREPLY=()
		_trainplan; printf "%s\n" "${COMPREPLY[@]}"' "$tp" "$@"
}

command -v bash >/dev/null 2>&1 || { echo "complete: bash not found" >&2; exit 1; }
for cmd in step search presets calibrate; do
	want=$("$tp" $cmd --table no-such-table 2>&1 | sed -n 's/.*--table no-such-table: allowed are //p' | sed 's/, /\n/g')
	[ -n "$want" ] || { bad "$cmd: no list of tables in its refusal of --table no-such-table"; continue; }
	got=$(complete_bash $cmd --table "")
	[ "$(printf '%s\n' "$want" | sort)" = "$(printf '%s\n' "$got" | sort)" ] && ok ||
		bad "bash: $cmd --table offers '$(echo $got)', $cmd takes '$(echo $want)'"
	complete_bash $cmd --ta | grep -qx -- --table && ok || bad "bash: $cmd --ta does not complete to --table"
	line=$(printf '%s\n' "$want" | tr '\n' ' ' | sed 's/ $//')
	grep -q "^		$cmd) compadd $line;;\$" completion/_trainplan && ok ||
		bad "zsh: no '$cmd) compadd $line;;' under --table"
	# the man page's item of the command, from its .It line to the next one
	item=$(awk -v c="$cmd" '/^\.It Cm / { on = ($3 == c) } on' man/trainplan.1)
	printf '%s\n' "$item" | sed -n 1p | grep -q 'Fl -table' && ok || bad "man: the $cmd item has no --table"
	for name in $want; do
		printf '%s\n' "$item" | grep -q "^\.Cm $name\( [,.]\)\{0,1\}\$" && ok ||
			bad "man: the $cmd item does not name the table $name"
	done
done
# bash splits at '=' by default; the words below are that split
bash -c '[ "${COMP_WORDBREAKS#*=}" != "$COMP_WORDBREAKS" ]' && ok || bad "bash: '=' is not in COMP_WORDBREAKS"
want=$("$tp" step --set parallel.schedule=no-such 2>&1 | sed -n 's/.*is not allowed (allowed: \(.*\))$/\1/p' | sed 's/, /\n/g')
[ -n "$want" ] || bad "step: no list of schedules in the refusal of parallel.schedule=no-such"
got=$(complete_bash step --set parallel.schedule =)
[ "$(printf '%s\n' "$want" | sort)" = "$(printf '%s\n' "$got" | sort)" ] && ok ||
	bad "bash: --set parallel.schedule=<TAB> offers '$(echo $got)', the plan takes '$(echo $want)'"
got=$(complete_bash step --set parallel.schedule = zb)
[ "$(printf '%s\n' "$want" | grep '^zb' | sort)" = "$(printf '%s\n' "$got" | sort)" ] && [ -n "$got" ] && ok ||
	bad "bash: --set parallel.schedule=zb<TAB> offers '$(echo $got)'"
# without '=' in COMP_WORDBREAKS the word comes whole, and so do the replies
got=$(complete_bash step --set parallel.schedule=zb)
[ "$(printf '%s\n' "$want" | grep '^zb' | sed 's/^/parallel.schedule=/' | sort)" = "$(printf '%s\n' "$got" | sort)" ] && ok ||
	bad "bash: --set parallel.schedule=zb<TAB> as one word offers '$(echo $got)'"
want=$("$tp" presets models --format csv | sed -e 1d -e 's/,.*//' | grep '^llama3-7')
got=$(complete_bash memory --set model.preset = llama3-7)
[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "bash: --set model.preset=llama3-7<TAB> offers '$(echo $got)', not '$(echo $want)'"
# zsh: the same values after --set KEY=, where compset -P '*=' keeps KEY= in front.  The
# completion function runs with compadd and compset standing in for zsh's own (the
# candidates it offers, and the prefix it moves), trainplan on PATH as installed.
complete_zsh() { # words..., the last the word completed
	PATH="$(cd "$(dirname "$tp")" && pwd):$PATH" zsh -f -c '
		compadd() { local a; for a; do case $a in -S) shift 2;; --) shift; print -l -- "$@"; return;; *) shift;; esac; done; }
		compset() { [[ $1 == -P && $PREFIX == *=* ]] && { IPREFIX=${PREFIX%%=*}=; PREFIX=${PREFIX#*=}; print -r -- "IPREFIX=$IPREFIX"; }; }
		_files() { :; }
		words=(trainplan "$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}
		source completion/_trainplan' "$@" 2>&1
}
if command -v zsh >/dev/null 2>&1; then
	want=$("$tp" step --set parallel.schedule=no-such 2>&1 | sed -n 's/.*is not allowed (allowed: \(.*\))$/\1/p' | sed 's/, /\n/g')
	got=$(complete_zsh step --set parallel.schedule=zb)
	[ "$(printf '%s\n' "$got" | sed -n 1p)" = "IPREFIX=parallel.schedule=" ] && ok ||
		bad "zsh: --set parallel.schedule=zb<TAB> keeps no 'parallel.schedule=' in front ($(echo $got))"
	[ "$(printf '%s\n' "$want" | sort)" = "$(printf '%s\n' "$got" | sed 1d | sort)" ] && [ -n "$want" ] && ok ||
		bad "zsh: --set parallel.schedule=<TAB> offers '$(echo $got)', the plan takes '$(echo $want)'"
	want=$("$tp" presets models --format csv | sed -e 1d -e 's/,.*//')
	got=$(complete_zsh memory --set model.preset=llama3 | sed 1d)
	[ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "zsh: --set model.preset=<TAB> offers other names than presets models"
	# a yes/no key: the words of its allowed column in presets keys, each one the loader takes
	got=$(complete_zsh step --set training.flash_attention= | sed 1d)
	want=$("$tp" presets keys --format csv | awk -F, '$1 == "training.flash_attention" { gsub(/ \| /, "\n", $3); print $3 }')
	[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "zsh: --set training.flash_attention=<TAB> offers '$(echo $got)'"
	for v in $got; do "$tp" get plan.tp --set training.flash_attention="$v" >/dev/null 2>&1 && ok ||
		bad "zsh: --set training.flash_attention=$v is offered and refused"; done
	got=$(complete_zsh step --set parallel.sched)
	printf '%s\n' "$got" | grep -qx parallel.schedule && ! printf '%s\n' "$got" | grep -q '^IPREFIX' && ok ||
		bad "zsh: --set parallel.sched<TAB> does not offer the key parallel.schedule"
else
	echo "complete: zsh not found; the zsh values after '=' are not checked" >&2
fi
echo "complete: $pass passed, $fail failed"
[ $fail -eq 0 ]
