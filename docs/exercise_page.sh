#!/bin/sh
# Doxygen's filter for lessons/NN_name/exercise.md (FILTER_PATTERNS in Doxyfile.in): gives the
# page its label, exercise_page_NN, so other pages can @ref it; the file itself stays as
# `./course hint` prints it.
exec sed -E '1s/^# Exercise ([0-9][0-9])(.*)$/# Exercise \1\2 {#exercise_page_\1}/' "$1"
