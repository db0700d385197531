// Keeps the exercise-check object library non-empty before any lesson adds its check.
