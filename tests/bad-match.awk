# tests/bad-match.awk -- the comparison of the bad-input corpus (tests/run-bad.sh).
# With mode=short: print the messages on stdin with each one of a kind about one key's
# value (E004 .. E016: an unknown section, key or preset, a value not of the key's type,
# range or names) shortened to its ID and the key it names,
# "FILE:LINE: error[E010] model.layers"
# (the quoted name of an unknown section or key, else the first section.key of the message;
# a message naming neither, and one with a "did you mean", which is what its case
# checks, stay whole).  With mode=match: stdin holds the expected lines, then a
# line "\f", then the actual ones; exit status 0 when they pair up, a short line
# matching an actual one of the same location and ID that names its key, any other
# line equal, its ID included.
function shorten(l,    i, id, rest, key) {
	if (!match(l, /: (error|warning|note)\[E[0-9]+\]: /) || index(l, "did you mean"))
		return l
	i = RSTART + RLENGTH
	id = substr(l, i - 6, 3) + 0
	if (id < 4 || id > 16) # the kinds about one key's value; a rule's sentence is its case
		return l
	rest = substr(l, i)
	key = ""
	if (id >= 4 && id <= 6 && match(rest, /'[^' ]+'/)) # the section or key as written
		key = substr(rest, RSTART, RLENGTH)
	else if (match(rest, /[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*/))
		key = substr(rest, RSTART, RLENGTH)
	if (key == "")
		return l
	return substr(l, 1, i - 3) " " key
}
mode == "short" { print shorten($0); next }
mode == "match" && $0 == "\f" { act = 1; next }
mode == "match" && !act { want[++nw] = $0; next }
mode == "match" { got[++ng] = $0; next }
END {
	if (mode != "match")
		exit 0
	if (nw != ng)
		exit 1
	for (k = 1; k <= nw; k++) {
		e = want[k]
		if (e == got[k])
			continue
		if (!match(e, /\[E[0-9]+\] [^ ]+$/))
			exit 1
		prefix = substr(e, 1, RSTART + index(substr(e, RSTART), "]") - 1)
		key = substr(e, length(prefix) + 2)
		if (index(got[k], prefix ": ") != 1 || !index(substr(got[k], length(prefix) + 3), key))
			exit 1
	}
	exit 0
}
