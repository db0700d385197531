#!/usr/bin/env bash
# with_guard_layer.sh GUARD_LAYER PROGRAM [ARGS...]: runs PROGRAM with the guard layer preloaded
# (harness/guard_layer.cpp: guard bands around every buffer, every launch recorded). In a
# sanitizer build the sanitizer runtime must be the first library loaded, so it goes first.
layer=$1
shift
asan=$(ldd "$1" 2>/dev/null | awk '/libasan/ { print $3 }')
LD_PRELOAD="${asan:+$asan }$layer" exec "$@"
