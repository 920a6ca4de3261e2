#!/bin/sh
# Hostile text and sizes given to trainplan's own commands (docs/architecture.md §8):
# text written into another language (a shell script, TOML, YAML, Markdown) stays text
# in it, a file of the wrong kind or format is refused without quoting its bytes, and
# work with a size known up front is refused before it starts.  The inputs are
# generated here: a file name with a newline cannot be a file of the repository.
# usage: check-inject.sh TRAINPLAN
bin=$1; pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-inject.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "inject: FAIL: $*" >&2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
root=$(pwd)

# 1. export: a plan whose folder name holds a newline, a command substitution, backticks,
#    quotes and an ESC.  The name stays inside the comment of each output: the launch
#    script runs no command of it, and the one line that names the file shows the
#    control characters as \xHH.
evil=$(printf 'x\ntouch PWNED-1\n$(touch PWNED-2)`touch PWNED-3`"q'"'"'\033[31m')
mkdir -p "$tmp/$evil" && cp plans/default.ini "$tmp/$evil/p.ini"
shown='x\x0Atouch PWNED-1\x0A$(touch PWNED-2)`touch PWNED-3`"q'"'"'\x1B[31m/p.ini'
for fw in megatron nemo torchtitan; do
	(cd "$tmp" && timeout 20 "$bin" export --for $fw --plan "$evil/p.ini" >"out.$fw" 2>/dev/null); rc=$?
	first=$(head -n 1 "$tmp/out.$fw")
	case $first in
	"# "*" for $shown: tp "*) [ $rc -eq 0 ] && ok || bad "export --for $fw: exit $rc" ;;
	*) bad "export --for $fw: first line '$first'" ;;
	esac
	# no output line but the first mentions the name; no control byte but newline
	[ "$(grep -c 'PWNED' "$tmp/out.$fw")" -eq 1 ] && ok || bad "export --for $fw: the name outside its comment"
	[ "$(tr -d '\n' < "$tmp/out.$fw" | tr -d '\040-\176' | LC_ALL=C tr -d '\200-\377' | wc -c)" -eq 0 ] \
		&& ok || bad "export --for $fw: a control byte in the output"
done
# the Megatron-LM script, run: no file is made
(cd "$tmp" && sh out.megatron >/dev/null 2>&1)
[ ! -e "$tmp/PWNED-1" ] && [ ! -e "$tmp/PWNED-2" ] && [ ! -e "$tmp/PWNED-3" ] && ok \
	|| bad "export --for megatron: the launch script ran the name"
# the YAML and TOML outputs: the comment is one line, the first key is the expected one
[ "$(sed -n 2p "$tmp/out.nemo")" = "trainer:" ] && ok || bad "export --for nemo: line 2 '$(sed -n 2p "$tmp/out.nemo")'"
grep -q '^\[training\]$' "$tmp/out.torchtitan" && [ "$(grep -c '^[^#]' "$tmp/out.torchtitan" | tr -d ' ')" -gt 5 ] \
	&& ! grep -q '^[^#[].*PWNED' "$tmp/out.torchtitan" && ok || bad "export --for torchtitan: the name outside its comment"
# the JSON output (DeepSpeed) has no comment: the name is not in it
(cd "$tmp" && timeout 20 "$bin" export --for deepspeed --plan "$evil/p.ini" >out.deepspeed 2>/dev/null); rc=$?
[ $rc -eq 0 ] && ! grep -q PWNED "$tmp/out.deepspeed" && ok || bad "export --for deepspeed: exit $rc"

# 2. report --compare: a plan title with an inline value (`=...`), a table bar, a link,
#    raw HTML, an anchor, an image and emphasis is shown as its characters, runs nothing
#    and breaks no table.
cp plans/default.ini "$tmp/a.ini"
printf '[plan]\ntitle = T0 `=search.best.tp` | [l](javascript:x) <script>y</script> {#id} ![i](bubble-curves) *b* _c_ ~d~ &amp; \\\\\n' > "$tmp/t.ini"
want='<td>T0 `=search.best.tp` | [l](javascript:x) &lt;script&gt;y&lt;/script&gt; {#id} ![i](bubble-curves) *b* _c_ ~d~ &amp;amp; \\</td>'
(cd "$tmp" && timeout 120 "$bin" report --compare a.ini t.ini -o rep --no-pdf >/dev/null 2>err); rc=$?
if [ $rc -eq 0 ] && grep -qF "$want" "$tmp/rep/compare.html" && ! grep -q '<script>\|href="javascript' "$tmp/rep/compare.html" &&
   [ "$(grep -c '^| B | t.ini | T0 ' "$tmp/rep/compare.md")" -eq 1 ]; then ok
else bad "report --compare with a hostile title: exit $rc: $(head -c 300 "$tmp/err")"; fi
# a file name with '|' and a backtick: one cell
mkdir -p "$tmp/b|\`=1\`" && cp plans/default.ini "$tmp/b|\`=1\`/p.ini"
(cd "$tmp" && timeout 120 "$bin" report --compare a.ini "b|\`=1\`/p.ini" -o rep2 --no-pdf >/dev/null 2>err); rc=$?
[ $rc -eq 0 ] && grep -qF '<td>b|`=1`/p.ini</td>' "$tmp/rep2/compare.html" && ok \
	|| bad "report --compare with a hostile file name: exit $rc: $(head -c 300 "$tmp/err")"

# 3. plan text values: a title with an ESC (a terminal command) or invalid UTF-8 from
#    --set is refused at --set, its bytes not quoted (tests/bad has the same in files)
got=$("$bin" get plan.title --plan plans/default.ini --set "plan.title=$(printf 'a\033]0;x\007')" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$got" = "trainplan: --set: error: plan.title: byte 2 (0x1B) is a control character or not UTF-8 (allowed: UTF-8 text without control characters)" ] \
	&& ok || bad "--set plan.title with ESC: exit $rc: $got"

echo "hostile inputs of trainplan: $pass passed, $fail failed"
[ $fail -eq 0 ]
