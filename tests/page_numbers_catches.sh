#!/usr/bin/env bash
# page_numbers_catches.sh PYTHON DOCS OUTDIR: tests/page_numbers.py fails on a figure typed by hand.
# A copy of the pages, with "0.123 ms" added to a sentence of lesson 02's page, must fail the check
# and be named, and so must a copy with "4.567" typed into a cell of a table of lesson 13's page;
# the pages as they are must pass it.
set -u
python=$1 docs=$2 out=$3
check=$(dirname "$0")/page_numbers.py
rm -rf "$out" && mkdir -p "$out" && cp "$docs"/*.md "$out"/ || exit 2
"$python" "$check" "$out" >/dev/null || { echo "the pages as they are fail the check"; exit 1; }
sed -i '0,/^- How a two-dimensional NDRange/s//- In 0.123 ms, how a two-dimensional NDRange/' \
  "$out/02_naive_convolution.md"
grep -q '0.123 ms' "$out/02_naive_convolution.md" || { echo "the sentence to change is gone from the page"; exit 2; }
said=$("$python" "$check" "$out")
status=$?
if [ $status != 1 ] || ! grep -qF '02_naive_convolution.md: - In 0.123 ms' <<<"$said"; then
  echo "expected exit 1 naming the figure, got exit $status:"; echo "$said"; exit 1
fi
# A table's cell: its unit is in the column's head.
rm -rf "$out" && mkdir -p "$out" && cp "$docs"/*.md "$out"/ || exit 2
row=$(grep -n '^| .* |$' "$out/13_several_devices.md" | grep -v -- '---' | sed -n 2p | cut -d: -f1)
[ -n "$row" ] || { echo "no table row on lesson 13's page to change"; exit 2; }
sed -i "${row}s/ |\$/ 4.567 |/" "$out/13_several_devices.md"
said_table=$("$python" "$check" "$out")
status=$?
if [ $status != 1 ] || ! grep -q '13_several_devices.md: .*4.567$' <<<"$said_table"; then
  echo "expected exit 1 naming the table's figure, got exit $status:"; echo "$said_table"; exit 1
fi
echo "ok: figures typed by hand into lesson 02's prose and lesson 13's table are caught:"
echo "$said" | sed -n 2p; echo "$said_table" | sed -n 2p
