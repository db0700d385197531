#!/usr/bin/env bash
# page_numbers_catches.sh PYTHON DOCS OUTDIR: tests/page_numbers.py fails on a figure typed by hand.
# A copy of the pages, with "0.123 ms" added to a sentence of lesson 02's page, must fail the check
# and be named; the pages as they are must pass it.
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
echo "ok: a figure typed by hand into lesson 02's page is caught:"; echo "$said" | head -3
