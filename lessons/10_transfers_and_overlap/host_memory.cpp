#include "host_memory.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

const char* host_memory_name(HostMemory memory) {
  switch (memory) {
    case HostMemory::pageable:
      return "pageable";
    case HostMemory::pinned:
      return "pinned";
    case HostMemory::zero_copy:
      return "zero-copy";
  }
  return "?";
}

namespace {

// One run's four events, in the order of the table, and its time on the host's clock.
struct RunEvents {
  std::vector<cl::Event> upload, download;
  cl::Event row, column;
  double wall_ms = 0;
};

Segments medians(const std::vector<RunEvents>& runs) {
  std::vector<double> up, row, column, down, wall;
  auto sum = [](const std::vector<cl::Event>& events) {
    double ms = 0;
    for (const auto& e : events) ms += course::event_ms(e);
    return ms;
  };
  for (const RunEvents& r : runs) {
    up.push_back(sum(r.upload));
    row.push_back(course::event_ms(r.row));
    column.push_back(course::event_ms(r.column));
    down.push_back(sum(r.download));
    wall.push_back(r.wall_ms);
  }
  return {course::median(up), course::median(row), course::median(column), course::median(down), course::median(wall)};
}

// Host memory the runtime may use in place: page-aligned and a whole number of pages, which is
// what CPU drivers (and Intel's GPUs) need to skip the copy.
struct AlignedBytes {
  explicit AlignedBytes(std::size_t bytes) : size(course::round_up(bytes, 4096)) {
    data.reset(static_cast<std::uint8_t*>(std::aligned_alloc(4096, size)));
    if (!data) throw std::bad_alloc();
  }
  struct Free {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::size_t size;
  std::unique_ptr<std::uint8_t, Free> data;
};

}  // namespace

Segments time_one_picture(const course::DeviceContext& dc, const course::SeparablePasses& passes, HostMemory memory,
                          const std::vector<std::uint8_t>& picture, std::vector<std::uint8_t>& result, int width,
                          int height, int repeat) {
  const std::size_t bytes = picture.size();
  const std::size_t floats = static_cast<std::size_t>(width) * height * sizeof(float);
  cl::CommandQueue queue = dc.queue;
  cl::Buffer between(dc.context, CL_MEM_READ_WRITE, floats);
  result.assign(bytes, 0);
  std::vector<RunEvents> runs;

  if (memory == HostMemory::zero_copy) {
    // The buffers ARE the host arrays. The host touches them only while they are mapped; the
    // map and unmap commands are where a discrete GPU would copy, and where a CPU does nothing.
    AlignedBytes host_in(bytes), host_out(bytes);
    std::memcpy(host_in.data.get(), picture.data(), bytes);
    cl::Buffer input(dc.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, host_in.data.get());
    cl::Buffer output(dc.context, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, bytes, host_out.data.get());
    const course::FinishQueuesOnUnwind finish_on_unwind({queue});
    for (int run = 0; run <= repeat; ++run) {
      RunEvents e;
      e.upload.resize(2);
      e.download.resize(2);
      const auto start = std::chrono::steady_clock::now();
      // Map for writing, as an application filling in the next picture would, then hand it back.
      void* in = queue.enqueueMapBuffer(input, CL_FALSE, CL_MAP_WRITE, 0, bytes, nullptr, &e.upload[0]);
      queue.enqueueUnmapMemObject(input, in, nullptr, &e.upload[1]);
      e.row = course::enqueue_rows(queue, passes, input, between, width, height);
      e.column = course::enqueue_columns(queue, passes, between, output, width, height);
      void* out = queue.enqueueMapBuffer(output, CL_TRUE, CL_MAP_READ, 0, bytes, nullptr, &e.download[0]);
      std::memcpy(result.data(), out, bytes);
      queue.enqueueUnmapMemObject(output, out, nullptr, &e.download[1]);
      queue.finish();
      e.wall_ms = course::ms_since(start);
      if (run > 0) runs.push_back(e);  // run 0 is the warm-up
    }
    return medians(runs);
  }

  cl::Buffer input(dc.context, CL_MEM_READ_ONLY, bytes), output = cl::Buffer(dc.context, CL_MEM_WRITE_ONLY, bytes);
  // Pageable: plain vectors. Pinned: two staging buffers the driver allocates page-locked,
  // mapped once and kept mapped; the application would decode frames straight into them.
  std::vector<std::uint8_t> pageable_in, pageable_out;
  cl::Buffer staging_in, staging_out;
  std::uint8_t *host_in = nullptr, *host_out = nullptr;
  if (memory == HostMemory::pageable) {
    pageable_in = picture;
    pageable_out.resize(bytes);
    host_in = pageable_in.data();
    host_out = pageable_out.data();
  } else {
    staging_in = cl::Buffer(dc.context, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes);
    staging_out = cl::Buffer(dc.context, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes);
    host_in = static_cast<std::uint8_t*>(queue.enqueueMapBuffer(staging_in, CL_TRUE, CL_MAP_WRITE, 0, bytes));
    // Downloads write into this mapping and the host reads it: mapped for both.
    host_out =
        static_cast<std::uint8_t*>(queue.enqueueMapBuffer(staging_out, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    std::memcpy(host_in, picture.data(), bytes);
  }
  const course::FinishQueuesOnUnwind finish_on_unwind({queue});
  for (int run = 0; run <= repeat; ++run) {
    RunEvents e;
    e.upload.resize(1);
    e.download.resize(1);
    const auto start = std::chrono::steady_clock::now();
    queue.enqueueWriteBuffer(input, CL_FALSE, 0, bytes, host_in, nullptr, &e.upload[0]);
    e.row = course::enqueue_rows(queue, passes, input, between, width, height);
    e.column = course::enqueue_columns(queue, passes, between, output, width, height);
    queue.enqueueReadBuffer(output, CL_FALSE, 0, bytes, host_out, nullptr, &e.download[0]);
    queue.finish();
    e.wall_ms = course::ms_since(start);
    if (run > 0) runs.push_back(e);
  }
  std::memcpy(result.data(), host_out, bytes);
  if (memory == HostMemory::pinned) {
    queue.enqueueUnmapMemObject(staging_in, host_in);
    queue.enqueueUnmapMemObject(staging_out, host_out);
    queue.finish();
  }
  return medians(runs);
}
