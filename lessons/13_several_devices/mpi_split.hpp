// Lesson 13 over MPI: the same split, one process (rank) per device, halo rows exchanged by
// MPI_Sendrecv between steps and the bands gathered on rank 0. Built where CMake finds MPI
// (COURSE_HAVE_MPI); `mpirun -np 2 build/lessons/lesson_13 --mpi --split-cpu 2` runs it on one
// machine, each rank on its own sub-device.
#pragma once

#include "course.hpp"

namespace lesson13 {

// True in a build with MPI.
bool mpi_built();

// The --mpi run, on every rank: returns the exit code (rank 0 prints the report, verifies the
// gathered picture against the CPU reference and writes --output).
int run_mpi(int argc, char** argv, const course::Options& options, const course::FilterSpec& filter);

}  // namespace lesson13
