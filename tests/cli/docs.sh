#!/bin/sh
# The docs cite only what is in the repository: no references to the
# project's external brief (its spec sections, style guide, ../shared/
# paths) in docs/, README.md, man/ or the sources, and every repository
# path they name (docs/..., src/..., tests/..., ...) exists.
# Usage: docs.sh SOURCE_DIR
set -u
cd "$1" || exit 1
fail=0
if grep -rnE 'SPEC (section|§)|SPEC §|STYLE\.md|\.\./shared' README.md docs man src include tools; then
	echo "FAIL: the lines above cite files outside the repository"; fail=1
fi
for f in $(grep -ohE '(docs|include|src|tests|tools|examples|bench|man|python|cmake|fuzz)/[A-Za-z0-9_./-]+' \
		README.md docs/*.md man/*.1 | sed 's/[.,;:)]*$//' | sort -u); do
	# placeholders (tests/bad/NAME.hlo) name no file
	echo "$f" | grep -qE '/[A-Z][A-Z_]+(\.|/|$)' && continue
	[ -e "$f" ] || { echo "FAIL: cited but not in the repository: $f"; fail=1; }
done
# README's first paragraph counts the tools there are
n=$(ls tools/*.c | wc -l)
words="zero one two three four five six seven eight nine"
want=$(echo $words | cut -d' ' -f$((n + 1)))
sed -n '3,4p' README.md | grep -q "library and $want command-line tools" ||
	{ echo "FAIL: README's first paragraph does not say $want command-line tools"; fail=1; }
[ $fail -eq 0 ] && echo "docs: ok"
exit $fail
