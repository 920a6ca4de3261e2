#!/bin/sh
# Inputs that are not regular files (a device such as /dev/zero, a FIFO without a writer, a
# directory) are refused at once with exit status 2 and a message, and a regular file past
# the size limit is refused after the limit, instead of hanging or filling the memory
# (docs/architecture.md §8).  The plan, an include, a config.json and a chapter all go
# through the same check.
# usage: check-endless.sh TRAINPLAN-REPORT [TRAINPLAN]
rpt=$1; tp=$2; pass=0; fail=0
tmp=$(mktemp -d /tmp/trainplan-endless.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"; mkdir "$tmp/dir"
# expect WANT COMMAND...: exit status 2 within 20 s and exactly the message WANT
expect() {
	want=$1; shift
	err=$(timeout 20 "$@" 2>&1 >/dev/null); rc=$?
	if [ $rc -eq 2 ] && [ "$err" = "$want" ]; then pass=$((pass + 1))
	else fail=$((fail + 1)); echo "FAIL: $*: exit $rc: $err" >&2; fi
}
for mode in --expand --lint --text; do
	expect "trainplan-report: /dev/zero: error: cannot read: a device, not a regular file" "$rpt" $mode /dev/zero
done
expect "trainplan-report: $tmp/fifo: error: cannot read: a FIFO, not a regular file" "$rpt" --expand "$tmp/fifo"
expect "trainplan-report: $tmp/dir: error: cannot read: a directory, not a file" "$rpt" --expand "$tmp/dir"
# a sparse regular file of 17 MiB: read up to the 16 MiB limit, then refused
truncate -s 17M "$tmp/big.md"
expect "trainplan-report: $tmp/big.md: error: more than 16777216 bytes: not a chapter" "$rpt" --expand "$tmp/big.md"
if [ -n "$tp" ]; then
	expect "trainplan: $tmp/fifo: error[E001]: cannot open the plan: a FIFO, not a regular file" "$tp" memory --plan "$tmp/fifo"
	printf 'include = fifo\n' > "$tmp/inc.ini"
	expect "trainplan: $tmp/inc.ini:1: error[E015]: include = fifo: cannot open $tmp/fifo: a FIFO, not a regular file" \
		"$tp" memory --plan "$tmp/inc.ini"
	expect "trainplan: $tmp/fifo: error[E019]: cannot read config.json: unable to open $tmp/fifo: a FIFO, not a regular file" \
		"$tp" memory --set "model.hf_config=$tmp/fifo"
	expect "trainplan: $tmp/dir: error[E019]: cannot read config.json: unable to open $tmp/dir: a directory, not a file" \
		"$tp" memory --set "model.hf_config=$tmp/dir"
fi
echo "endless inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
