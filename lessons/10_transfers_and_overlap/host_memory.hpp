// Lesson 10, part 1: one picture through upload, row pass, column pass and download, with the
// host's copy of the picture in three kinds of memory. Each segment is timed by its own event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "course.hpp"
#include "transfer_pipeline.hpp"

// Where the host keeps the picture it sends and the result it gets back.
enum class HostMemory {
  pageable,   // an ordinary std::vector: the driver must stage it through its own pinned buffer
  pinned,     // a mapped CL_MEM_ALLOC_HOST_PTR buffer: page-locked, so the copy engine reads it directly
  zero_copy,  // CL_MEM_USE_HOST_PTR: the kernels use the host's memory itself; map/unmap replace copies
};

const char* host_memory_name(HostMemory memory);

// Medians over the timed runs, in milliseconds, of the segments of the 2010 thesis's (docs/references.md) table 6.6,
// each from its events; and of the whole trip on the host's clock, which also holds what no event
// shows (staging a pageable copy, the gaps between commands, the host waiting for the queue).
struct Segments {
  double upload = 0, row = 0, column = 0, download = 0;
  double wall = 0;  // before the upload is enqueued to the queue's finish after the download
  double kernels() const { return row + column; }
  double total() const { return upload + row + column + download; }
};

// Sends `picture` (pixels of 4 bytes, or of 1 byte when passes.eight_bit) through both passes
// `repeat` times after one warm-up; `result` receives the last run's output, same layout.
Segments time_one_picture(const course::DeviceContext& dc, const course::SeparablePasses& passes, HostMemory memory,
                          const std::vector<std::uint8_t>& picture, std::vector<std::uint8_t>& result, int width,
                          int height, int repeat);
