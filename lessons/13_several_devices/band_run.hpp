// Lesson 13: one picture filtered by several devices at once, each on its band of rows plus the
// halo it reads, and gathered on the host; the same split iterated, exchanging only halo rows.
#pragma once

#include <string>
#include <vector>

#include "bands.hpp"
#include "course.hpp"
#include "device_set.hpp"

namespace lesson13 {

// What a command did, for the timeline: kind, start and end in ms from its context's first command.
enum class Stage { upload = 0, row = 1, column = 2, download = 3, halo = 4 };
struct Bar {
  Stage stage = Stage::row;
  double start_ms = 0, end_ms = 0;
};

struct DeviceLoad {
  int rows = 0;           // rows this device computed (summed over chunks when dynamic)
  double kernel_ms = 0;   // its kernels' time, from their events
  double bytes = 0;       // bytes it moved: band and halo up, band down, halos exchanged
  double events_ms = 0;   // every command's time from its events, summed: copies on the
                          // transfer queue may run beside kernels, so this can exceed the wall time
  std::vector<Bar> bars;  // every command it ran
};

struct SplitRun {
  std::string name;
  double wall_ms = 0;                // host clock, first upload enqueued to the result gathered
  int runs = 1;                      // timed runs this one is the median of (by wall time)
  double fastest_ms = 0, slowest_ms = 0;  // kernel_ms() of the fastest and slowest of them
  std::vector<DeviceLoad> devices;   // one per worker
  course::GrayImage result;          // the gathered picture
  double kernel_ms() const;          // the slowest device's kernel time: the split's critical path
};

// Filters `image` once: band k on workers[k], every command on the worker's one queue. With
// `pinned` the picture and the result are in pinned host memory (copied there before the clock
// starts, as when the frames live there), else in the image's own pageable memory.
SplitRun run_split(std::vector<Worker>& workers, const course::GrayImage& image, const std::vector<Band>& bands,
                   int radius, bool pinned = false);

// Filters `image` once, the rows handed out in chunks of `chunk_rows` from one shared counter:
// each device, from its own host thread, takes the next chunk as soon as it finished its last.
SplitRun run_dynamic(std::vector<Worker>& workers, const course::GrayImage& image, int chunk_rows, int radius);

// The heights of the two probes for --probe-rows `rows` on a picture `height` rows tall: `rows`
// and 8 x `rows`, fewer on a shorter picture.
std::pair<int, int> probe_heights(int rows, int height);

// Each worker's cost of filtering a band of `image` (its two passes' kernels, by their events),
// from the two probes.
std::vector<Cost> probe_costs(std::vector<Worker>& workers, const course::GrayImage& image, int rows, int radius);

// Filters `image` `steps` times. Between steps each device exchanges only the halo rows its
// neighbours read: its boundary rows are computed first, sent while its interior is computed,
// through the host (`copy_buffer` false, or the devices in several contexts) or by
// clEnqueueCopyBuffer within their one context.
SplitRun run_steps(std::vector<Worker>& workers, const course::GrayImage& image, const std::vector<Band>& bands,
                   int radius, int steps, bool copy_buffer);

}  // namespace lesson13
