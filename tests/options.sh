#!/bin/sh
# The lists of commands and options outside the program come from its options table
# (cli/options.c) and command table (cli/main.c), through trainplan --dump-options KIND:
#   completion/trainplan.bash  bash   between "# options: begin ..." and "# options: end"
#   completion/_trainplan      zsh    the same lines
#   man/trainplan.1            man    between ".\" options: begin ..." and ".\" options: end"
#   man/trainplan.1            diagnostics  its DIAGNOSTICS section, the same way
#   README.md                  readme between "<!-- commands: begin ..." and "<!-- commands: end -->"
# Then every option of the table is read by its command's parser: the option's word is
# in cli/cmd_COMMAND.c (cmd_table.c for data; the shared --plan, --set and --format are
# read by cli/common.c); and the values the table lists for an option are what the
# command's refusal of another value names.
# usage: options.sh TRAINPLAN          fail when a file differs (make check-options)
#        options.sh TRAINPLAN write    rewrite the parts (make options)
tp=$1; mode=$2; pass=0; fail=0
part() { # FILE KIND BEGIN-PREFIX END-LINE
	file=$1; kind=$2; begin=$3; end=$4
	new=$("$tp" --dump-options "$kind") || { fail=$((fail + 1)); return; }
	[ "$(B=$begin awk 'index($0, ENVIRON["B"]) == 1' "$file" | wc -l)" = 1 ] && [ "$(grep -cxF "$end" "$file")" = 1 ] || {
		echo "FAIL: $file needs one line starting '$begin' and one line '$end'" >&2
		fail=$((fail + 1)); return; }
		# the markers reach awk through the environment: -v would read '\"' as an escape
	old=$(B=$begin E=$end awk 'index($0, ENVIRON["B"]) == 1 { on = 1 } on { print } $0 == ENVIRON["E"] { on = 0 }' "$file")
	if [ "$mode" = write ]; then
		[ "$old" = "$new" ] && { pass=$((pass + 1)); return; }
		tmp=$file.tmp.$$
		printf '%s\n' "$new" > "$tmp.part" &&
		B=$begin E=$end awk -v f="$tmp.part" '
			index($0, ENVIRON["B"]) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == ENVIRON["E"] { skip = 0; next }
			!skip { print }' "$file" > "$tmp" && cat "$tmp" > "$file"; rc=$?
		rm -f "$tmp.part" "$tmp"
		[ $rc -eq 0 ] && { echo "options: $file rewritten"; pass=$((pass + 1)); } || fail=$((fail + 1))
		return
	fi
	if [ "$old" = "$new" ]; then pass=$((pass + 1)); return; fi
	echo "FAIL: $file differs from trainplan --dump-options $kind (make options rewrites it):" >&2
	a=$(mktemp) && b=$(mktemp) || exit 1
	printf '%s\n' "$old" > "$a"; printf '%s\n' "$new" > "$b"
	diff -u "$a" "$b" | sed 1,2d >&2
	rm -f "$a" "$b"
	fail=$((fail + 1))
}
part completion/trainplan.bash bash '# options: begin' '# options: end'
part completion/_trainplan zsh '# options: begin' '# options: end'
part man/trainplan.1 man '.\" options: begin' '.\" options: end'
part man/trainplan.1 diagnostics '.\" diagnostics: begin' '.\" diagnostics: end'
part README.md readme '<!-- commands: begin' '<!-- commands: end -->'
[ "$mode" = write ] && { [ $fail -eq 0 ]; exit; }
# each option of the table is read by its command's parser
unread=$(mktemp) || exit 1
"$tp" --dump-options bash | sed -n 's/^	\([a-z]*\)) echo "\(.*\)";;$/\1 \2/p' | sed -n '/^[a-z]* -/p' |
while read -r cmd opts; do
	src=cli/cmd_$cmd.c; [ "$cmd" = data ] && src=cli/cmd_table.c
	for o in $opts; do
		case $o in --plan|--set|--format|--help) continue;; esac
		grep -q "cli_is(opt, \"$o\")" "$src" || echo "FAIL: $cmd: option $o of the options table is not read in $src"
	done
done > "$unread"
if [ -s "$unread" ]; then cat "$unread" >&2; fail=$((fail + $(wc -l < "$unread"))); else pass=$((pass + 1)); fi
rm -f "$unread"
# the values the table lists for an option are those its command takes: its refusal of
# a value it does not take lists them ("allowed are a, b, c"); --holdout's are examples
"$tp" --dump-options bash | sed -n 's/^	"\([a-z]*\) \(-[-a-z]*\)") echo "\([^@"]*\)";;$/\1 \2 \3/p' |
while read -r cmd opt words; do
	case "$opt" in --format|--holdout) continue;; esac
	extra=; [ "$cmd" = import ] && extra=tests/cli/none.sh
	got=$("$tp" $cmd $opt no-such-value $extra 2>&1 | sed -n 's/.*no-such-value.*: allowed \(are \)\{0,1\}//p' |
		sed -e 's/ (.*//' -e 's/;.*//' | sed 's/, /\n/g' | sort)
	want=$(printf '%s\n' $words | sort)
	[ "$got" = "$want" ] || echo "FAIL: $cmd $opt: the options table lists '$(echo $want)', the command takes '$(echo $got)'"
done > "$unread"
if [ -s "$unread" ]; then cat "$unread" >&2; fail=$((fail + $(wc -l < "$unread"))); else pass=$((pass + 1)); fi
rm -f "$unread"
echo "options: $pass passed, $fail failed"
[ $fail -eq 0 ]
