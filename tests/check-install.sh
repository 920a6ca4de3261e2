#!/bin/sh
# tests/check-install.sh MAKE -- install into a temporary DESTDIR + PREFIX, build the
# report of a plan and a comparison of two plans from a temporary folder with the
# installed trainplan (no checkout in reach: the share folder is found beside the
# program), check the completion and --version, uninstall and find nothing left.
make=$1
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest; prefix=/opt/tp
fail() { echo "install: FAIL: $*" >&2; exit 1; }

$make -s install DESTDIR="$dest" PREFIX="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "make install"; }
bin=$dest$prefix/bin
for f in bin/trainplan bin/trainplan-report share/trainplan/chapters/01-summary.md \
         share/trainplan/figures/style.gp share/trainplan/figures/compare/compare-step.gp share/trainplan/plans/default.ini \
         share/man/man1/trainplan.1 share/man/man1/trainplan-report.1 \
         share/bash-completion/completions/trainplan share/zsh/site-functions/_trainplan; do
	[ -f "$dest$prefix/$f" ] || fail "$f not installed"
done

# --version of both programs: one line, the same version
v1=$("$bin/trainplan" --version) || fail "trainplan --version"
v2=$("$bin/trainplan-report" --version) || fail "trainplan-report --version"
[ "${v1#trainplan }" = "${v2#trainplan-report }" ] && [ -n "${v1#trainplan }" ] || fail "versions '$v1' / '$v2'"

# the report of a user's plan, from a folder that is not the checkout
mkdir -p "$tmp/work" && cp plans/llama2-70b-a100.ini "$tmp/work/my.ini"
(cd "$tmp/work" && "$bin/trainplan" report my.ini -o rep >"$tmp/report.out" 2>"$tmp/report.err") ||
	{ cat "$tmp/report.err" >&2; fail "trainplan report"; }
for f in report.html report.pdf figures/bubble-curves.svg tables/memory-stages.csv; do
	[ -s "$tmp/work/rep/$f" ] || fail "rep/$f missing or empty"
done
grep -q "Llama" "$tmp/work/rep/report.html" || fail "report.html does not name the plan's model"
case $(cat "$tmp/work/rep/report.html") in *"$top"*) fail "report.html names the checkout";; esac

# a comparison of two plans, from the same folder
cp plans/default.ini "$tmp/work/other.ini"
(cd "$tmp/work" && "$bin/trainplan" report --compare my.ini other.ini -o cmp >"$tmp/cmp.out" 2>"$tmp/cmp.err") ||
	{ cat "$tmp/cmp.err" >&2; fail "trainplan report --compare"; }
for f in compare.html compare.pdf compare.md figures/compare-step.svg figures/compare-memory.svg; do
	[ -s "$tmp/work/cmp/$f" ] || fail "cmp/$f missing or empty"
done
grep -q "my.ini" "$tmp/work/cmp/compare.html" && grep -q "other.ini" "$tmp/work/cmp/compare.html" ||
	fail "compare.html does not name both plans"
case $(cat "$tmp/work/cmp/compare.html") in *"$top"*) fail "compare.html names the checkout";; esac

# the plan on standard input
(cd "$tmp/work" && "$bin/trainplan" report --plan - -o rep2 --no-pdf <my.ini >/dev/null 2>"$tmp/report2.err") ||
	{ cat "$tmp/report2.err" >&2; fail "trainplan report --plan -"; }
[ -s "$tmp/work/rep2/report.html" ] && [ ! -e "$tmp/work/rep2/report.pdf" ] || fail "--plan - --no-pdf"

# bash completion: subcommands, plan keys, presets, catalog names
if command -v bash >/dev/null 2>&1; then
	got=$(bash -c '. "$1"; try() { COMP_WORDS=("$TP" "$@"); COMP_CWORD=$#; COMPREPLY=(); _trainplan; echo "${COMPREPLY[*]}"; }
		TP=$2; try mem; try memory --set parallel.t; try memory --set cluster.gpu=h2; try get memory.tot' \
		sh "$dest$prefix/share/bash-completion/completions/trainplan" "$bin/trainplan")
	printf '%s\n' "$got" | sed -n 1p | grep -qx "memory" || fail "completion of 'mem': $(printf '%s' "$got" | sed -n 1p)"
	printf '%s\n' "$got" | sed -n 2p | grep -q "parallel.tp=" || fail "completion of --set parallel.t"
	printf '%s\n' "$got" | sed -n 3p | grep -qx "cluster.gpu=h200-141g" || fail "completion of cluster.gpu=h2"
	printf '%s\n' "$got" | sed -n 4p | grep -qx "memory.total" || fail "completion of get memory.tot"
fi

$make -s uninstall DESTDIR="$dest" PREFIX="$prefix" >/dev/null || fail "make uninstall"
left=$(find "$dest" -type f | head -n 5)
[ -z "$left" ] || fail "left after uninstall: $left"
echo "install: installed, report and comparison built outside the checkout, completion, uninstalled"
