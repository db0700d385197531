#include "band_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace lesson13 {
namespace {

using Clock = std::chrono::steady_clock;

using course::ms_since;

// Lesson 04's v1 pass over rows [first_row, first_row + rows) of a buffer `height` rows tall:
// its work-items number the pixels row after row, so a global offset of first_row * width
// starts the launch at that row, and the kernel clamps its reads to the buffer's rows.
cl::Event enqueue_pass(const cl::CommandQueue& queue, cl::Kernel& kernel, const cl::Buffer& in, const cl::Buffer& out,
                       const Worker& w, int width, int height, int radius, int first_row, int rows,
                       const std::vector<cl::Event>& waits = {}) {
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, w.weights);
  kernel.setArg(3, width);
  kernel.setArg(4, height);
  kernel.setArg(5, radius);
  cl::Event done;
  queue.enqueueNDRangeKernel(kernel, cl::NDRange(std::size_t(first_row) * width), cl::NDRange(std::size_t(rows) * width),
                             cl::NullRange, waits.empty() ? nullptr : &waits, &done);
  return done;
}

std::size_t row_bytes(int width, int rows) { return std::size_t(width) * rows * sizeof(float); }

// Commands recorded while enqueuing, turned into bars and times once they have run.
struct Recorded {
  int device;
  Stage stage;
  cl::Event event;
};

void account(SplitRun& run, const std::vector<Worker>& workers, const std::vector<Recorded>& recorded) {
  // Each context's own clock starts at its first command; contexts of two platforms need not
  // share a clock, so each is drawn from its own zero.
  std::vector<cl_ulong> zero(context_count(workers), ~cl_ulong(0));
  for (const Recorded& r : recorded) {
    cl_ulong& z = zero[workers[r.device].context_index];
    z = std::min(z, r.event.getProfilingInfo<CL_PROFILING_COMMAND_START>());
  }
  for (const Recorded& r : recorded) {
    const cl_ulong z = zero[workers[r.device].context_index];
    const Bar bar{r.stage, (r.event.getProfilingInfo<CL_PROFILING_COMMAND_START>() - z) * 1e-6,
                  (r.event.getProfilingInfo<CL_PROFILING_COMMAND_END>() - z) * 1e-6};
    DeviceLoad& load = run.devices[r.device];
    load.bars.push_back(bar);
    load.events_ms += bar.end_ms - bar.start_ms;
    if (bar.stage == Stage::row || bar.stage == Stage::column) load.kernel_ms += bar.end_ms - bar.start_ms;
  }
}

SplitRun empty_run(const std::string& name, const course::GrayImage& image, std::size_t devices) {
  SplitRun run;
  run.name = name;
  run.devices.resize(devices);
  run.result = course::GrayImage{image.width, image.height, std::vector<float>(image.pixels.size())};
  return run;
}

}  // namespace

double SplitRun::kernel_ms() const {
  double most = 0;
  for (const DeviceLoad& d : devices) most = std::max(most, d.kernel_ms);
  return most;
}

// The picture and its result in pinned host memory (lesson 10): a buffer the driver allocates in
// host memory (CL_MEM_ALLOC_HOST_PTR) and maps, one pair for each context, filled before the
// clock starts, as when the frames live there. A copy from pinned memory is a DMA the device runs
// itself; from pageable memory a driver typically stages it through a pinned buffer of its own
// with the calling thread, and that one host thread feeding two devices then stages their bands
// one after the other is what page 13's two-GPU runs suggest (an inference there).
struct PinnedPictures {
  struct Pair {
    cl::CommandQueue queue;
    cl::Buffer in, out;
    float *in_data = nullptr, *out_data = nullptr;
  };
  std::vector<Pair> pairs;  // by context_index

  PinnedPictures(const std::vector<Worker>& workers, const course::GrayImage& image) {
    const std::size_t bytes = image.pixels.size() * sizeof(float);
    pairs.resize(context_count(workers));
    for (const Worker& w : workers) {
      Pair& p = pairs[w.context_index];
      if (p.in_data) continue;
      p.queue = w.dc.queue;
      p.in = cl::Buffer(w.dc.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
      p.out = cl::Buffer(w.dc.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
      p.in_data = static_cast<float*>(p.queue.enqueueMapBuffer(p.in, CL_TRUE, CL_MAP_WRITE, 0, bytes));
      p.out_data = static_cast<float*>(p.queue.enqueueMapBuffer(p.out, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
      std::copy(image.pixels.begin(), image.pixels.end(), p.in_data);
    }
  }
  ~PinnedPictures() {
    for (Pair& p : pairs)
      if (p.in_data) try {
          p.queue.enqueueUnmapMemObject(p.in, p.in_data);
          p.queue.enqueueUnmapMemObject(p.out, p.out_data);
          p.queue.finish();
        } catch (const cl::Error&) {  // a destructor must not throw: the buffers go with the context
        }
  }
  PinnedPictures(const PinnedPictures&) = delete;
  PinnedPictures& operator=(const PinnedPictures&) = delete;
};

SplitRun run_split(std::vector<Worker>& workers, const course::GrayImage& image, const std::vector<Band>& bands,
                   int radius, bool pinned) {
  const int width = image.width;
  SplitRun run = empty_run("", image, workers.size());
  std::vector<Recorded> recorded;
  std::vector<cl::Buffer> buffers;  // alive until every queue has finished
  std::unique_ptr<PinnedPictures> host;
  if (pinned) host = std::make_unique<PinnedPictures>(workers, image);
  const Clock::time_point t0 = Clock::now();
  for (std::size_t k = 0; k < workers.size(); ++k) {
    const Band& b = bands[k];
    if (b.rows == 0) continue;
    Worker& w = workers[k];
    const cl::CommandQueue& q = w.dc.queue;
    const std::size_t bytes = row_bytes(width, b.read_rows());
    cl::Buffer in(w.dc.context, CL_MEM_READ_WRITE, bytes), rows(w.dc.context, CL_MEM_READ_WRITE, bytes),
        out(w.dc.context, CL_MEM_READ_WRITE, bytes);
    cl::Event up, down;
    const float* source = host ? host->pairs[w.context_index].in_data : image.pixels.data();
    float* target = host ? host->pairs[w.context_index].out_data : run.result.pixels.data();
    // The band with its halo goes up; only the band comes back.
    q.enqueueWriteBuffer(in, CL_FALSE, 0, bytes, source + std::size_t(b.read_first()) * width, nullptr, &up);
    const cl::Event row = enqueue_pass(q, w.row, in, rows, w, width, b.read_rows(), radius, 0, b.read_rows());
    const cl::Event column = enqueue_pass(q, w.column, rows, out, w, width, b.read_rows(), radius, b.halo_top, b.rows);
    q.enqueueReadBuffer(out, CL_FALSE, row_bytes(width, b.halo_top), row_bytes(width, b.rows),
                        target + std::size_t(b.first) * width, nullptr, &down);
    q.flush();  // each device starts as soon as its commands are enqueued
    recorded.insert(recorded.end(), {{int(k), Stage::upload, up}, {int(k), Stage::row, row},
                                     {int(k), Stage::column, column}, {int(k), Stage::download, down}});
    run.devices[k].rows = b.rows;
    run.devices[k].bytes = double(bytes + row_bytes(width, b.rows));
    buffers.insert(buffers.end(), {in, rows, out});
  }
  for (Worker& w : workers) w.dc.queue.finish();
  run.wall_ms = ms_since(t0);
  if (host)  // the result is in pinned memory: the host reads it from there, after the clock
    for (std::size_t k = 0; k < workers.size(); ++k) {
      const float* from = host->pairs[workers[k].context_index].out_data + std::size_t(bands[k].first) * width;
      std::copy(from, from + std::size_t(bands[k].rows) * width, run.result.pixels.begin() + std::size_t(bands[k].first) * width);
    }
  account(run, workers, recorded);
  return run;
}

SplitRun run_dynamic(std::vector<Worker>& workers, const course::GrayImage& image, int chunk_rows, int radius) {
  const int width = image.width, height = image.height;
  const int chunks = (height + chunk_rows - 1) / chunk_rows;
  SplitRun run = empty_run("", image, workers.size());
  std::vector<std::vector<Recorded>> recorded(workers.size());
  std::atomic<int> next{0};
  const Clock::time_point t0 = Clock::now();
  // One host thread per device: OpenCL calls on different queues may come from different threads.
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> failures(workers.size());
  for (std::size_t k = 0; k < workers.size(); ++k)
    threads.emplace_back([&, k] {
      try {
        Worker& w = workers[k];
        const cl::CommandQueue& q = w.dc.queue;
        const std::size_t most = row_bytes(width, std::min(height, chunk_rows + 2 * radius));
        cl::Buffer in(w.dc.context, CL_MEM_READ_WRITE, most), rows(w.dc.context, CL_MEM_READ_WRITE, most),
            out(w.dc.context, CL_MEM_READ_WRITE, most);
        for (int c = next++; c < chunks; c = next++) {
          const Band b = with_halo(c * chunk_rows, std::min(chunk_rows, height - c * chunk_rows), height, radius);
          cl::Event up, down;
          q.enqueueWriteBuffer(in, CL_FALSE, 0, row_bytes(width, b.read_rows()),
                               image.pixels.data() + std::size_t(b.read_first()) * width, nullptr, &up);
          const cl::Event row = enqueue_pass(q, w.row, in, rows, w, width, b.read_rows(), radius, 0, b.read_rows());
          const cl::Event column =
              enqueue_pass(q, w.column, rows, out, w, width, b.read_rows(), radius, b.halo_top, b.rows);
          q.enqueueReadBuffer(out, CL_FALSE, row_bytes(width, b.halo_top), row_bytes(width, b.rows),
                              run.result.pixels.data() + std::size_t(b.first) * width, nullptr, &down);
          q.finish();  // this device is free: take the next chunk
          recorded[k].insert(recorded[k].end(), {{int(k), Stage::upload, up}, {int(k), Stage::row, row},
                                                 {int(k), Stage::column, column}, {int(k), Stage::download, down}});
          run.devices[k].rows += b.rows;
          run.devices[k].bytes += double(row_bytes(width, b.read_rows() + b.rows));
        }
      } catch (...) {
        failures[k] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
  run.wall_ms = ms_since(t0);
  std::vector<Recorded> all;
  for (const auto& r : recorded) all.insert(all.end(), r.begin(), r.end());
  account(run, workers, all);
  return run;
}

std::pair<int, int> probe_heights(int rows, int height) {
  // The second probe eight times as tall: the fixed cost shows in the short one, the cost per
  // row in the difference.
  const int tall = std::min(8 * rows, height);
  return {std::min(rows, std::max(1, tall / 8)), tall};
}

std::vector<Cost> probe_costs(std::vector<Worker>& workers, const course::GrayImage& image, int rows, int radius) {
  const int width = image.width;
  const auto [shorter, tall] = probe_heights(rows, image.height);
  std::vector<Cost> costs;
  for (Worker& w : workers) {
    double ms[2] = {0, 0};
    for (int p = 0; p < 2; ++p) {
      const int probe_rows = p == 0 ? shorter : tall;
      const Band b = with_halo((image.height - probe_rows) / 2, probe_rows, image.height, radius);  // the middle
      const std::size_t bytes = row_bytes(width, b.read_rows());
      cl::Buffer in(w.dc.context, CL_MEM_READ_WRITE, bytes), tmp(w.dc.context, CL_MEM_READ_WRITE, bytes),
          out(w.dc.context, CL_MEM_READ_WRITE, bytes);
      w.dc.queue.enqueueWriteBuffer(in, CL_TRUE, 0, bytes, image.pixels.data() + std::size_t(b.read_first()) * width);
      double best = 1e30;
      for (int run = 0; run < 4; ++run) {  // the first is a warm-up
        const cl::Event row = enqueue_pass(w.dc.queue, w.row, in, tmp, w, width, b.read_rows(), radius, 0, b.read_rows());
        const cl::Event column =
            enqueue_pass(w.dc.queue, w.column, tmp, out, w, width, b.read_rows(), radius, b.halo_top, b.rows);
        column.wait();
        const double t = (column.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                          row.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
        if (run > 0) best = std::min(best, t);
      }
      ms[p] = best;
    }
    costs.push_back(cost_from_probes(shorter, ms[0], tall, ms[1]));
  }
  return costs;
}

SplitRun run_steps(std::vector<Worker>& workers, const course::GrayImage& image, const std::vector<Band>& bands,
                   int radius, int steps, bool copy_buffer) {
  const int width = image.width;
  const std::size_t n = workers.size();
  copy_buffer = copy_buffer && context_count(workers) == 1;  // buffers of two contexts cannot meet
  SplitRun run = empty_run("", image, n);
  std::vector<Recorded> recorded;
  const std::vector<HaloCopy> copies = halo_copies(bands);
  // Per device: the picture's band as it was (a) and as the step makes it (b), the row pass's
  // result between them, and the events the next step's row pass must wait for.
  std::vector<cl::Buffer> a(n), b(n), rows(n);
  std::vector<std::vector<cl::Event>> ready(n);
  // Two staging pictures on the host, one per step's parity: a step's halo rows go down into one
  // while the previous step's may still be going up from the other.
  std::vector<std::vector<float>> staging(2, std::vector<float>(image.pixels.size()));
  const Clock::time_point t0 = Clock::now();
  for (std::size_t k = 0; k < n; ++k) {
    if (bands[k].rows == 0) continue;
    const std::size_t bytes = row_bytes(width, bands[k].read_rows());
    for (cl::Buffer* buffer : {&a[k], &b[k], &rows[k]}) *buffer = cl::Buffer(workers[k].dc.context, CL_MEM_READ_WRITE, bytes);
    cl::Event up;
    workers[k].dc.queue.enqueueWriteBuffer(a[k], CL_FALSE, 0, bytes,
                                           image.pixels.data() + std::size_t(bands[k].read_first()) * width, nullptr, &up);
    recorded.push_back({int(k), Stage::upload, up});
    run.devices[k].rows = bands[k].rows;
    run.devices[k].bytes += double(bytes);
  }
  for (int step = 0; step < steps; ++step) {
    std::vector<cl::Event> boundary(n), row_done(n), sent(n);
    // 1. Each device: the row pass over its band and halo, then the column pass over its
    //    boundary rows (those its neighbours read) first, so they can leave while the interior
    //    is computed.
    for (std::size_t k = 0; k < n; ++k) {
      const Band& bd = bands[k];
      if (bd.rows == 0) continue;
      Worker& w = workers[k];
      const int edge = std::min(radius, bd.rows), h = bd.read_rows();
      row_done[k] = enqueue_pass(w.dc.queue, w.row, a[k], rows[k], w, width, h, radius, 0, h, ready[k]);
      recorded.push_back({int(k), Stage::row, row_done[k]});
      std::vector<cl::Event> columns;
      if (bd.rows <= 2 * edge) {
        columns.push_back(enqueue_pass(w.dc.queue, w.column, rows[k], b[k], w, width, h, radius, bd.halo_top, bd.rows));
      } else {
        columns.push_back(enqueue_pass(w.dc.queue, w.column, rows[k], b[k], w, width, h, radius, bd.halo_top, edge));
        columns.push_back(enqueue_pass(w.dc.queue, w.column, rows[k], b[k], w, width, h, radius,
                                       bd.halo_top + bd.rows - edge, edge));
      }
      boundary[k] = columns.back();  // in order: the last boundary launch ends after the first
      w.dc.queue.flush();
      // 2. Through the host: the boundary rows go down on the transfer queue, beside the interior.
      if (!copy_buffer) {
        std::vector<float>& host = staging[step % 2];
        const std::vector<cl::Event> after{boundary[k]};
        // Its first `edge` rows for the band above, its last for the band below; a band of no more
        // than 2 * edge rows sends all of them at once (its two halos overlap or touch).
        const bool whole = bd.rows <= 2 * edge;
        for (const int first : {bd.first, bd.first + bd.rows - edge}) {
          const int count = whole ? bd.rows : edge;
          w.transfers.enqueueReadBuffer(b[k], CL_FALSE, row_bytes(width, first - bd.read_first()), row_bytes(width, count),
                                        host.data() + std::size_t(first) * width, &after, &sent[k]);
          recorded.push_back({int(k), Stage::halo, sent[k]});
          run.devices[k].bytes += double(row_bytes(width, count));
          if (whole) break;
        }
        w.transfers.flush();
      }
      if (bd.rows > 2 * edge) {
        const cl::Event interior = enqueue_pass(w.dc.queue, w.column, rows[k], b[k], w, width, h, radius,
                                                bd.halo_top + edge, bd.rows - 2 * edge);
        recorded.push_back({int(k), Stage::column, interior});
      }
      for (const cl::Event& e : columns) recorded.push_back({int(k), Stage::column, e});
      w.dc.queue.flush();
    }
    // 3. Each halo from the band that computes it, into the next step's input of its reader. A
    //    copy waits for its rows to exist and for its reader's row pass to have read the buffer
    //    it overwrites. Through the host, the host waits for the rows to be in its memory before
    //    it enqueues their write: a non-blocking write may read its host memory at any time
    //    after the call (on two NVIDIA GPUs, writes enqueued before their rows had arrived sent
    //    stale halos), so that memory must hold the rows when the write is enqueued. Across contexts
    //    (two platforms) only the host can wait, whichever the path.
    std::vector<std::vector<cl::Event>> next(n);
    for (const HaloCopy& c : copies) {
      Worker& to = workers[c.to];
      const std::size_t at = row_bytes(width, c.first - bands[c.to].read_first()), size = row_bytes(width, c.rows);
      const bool shared = to.context_index == workers[c.from].context_index;
      std::vector<cl::Event> waits{row_done[c.to]};
      const cl::Event& source = copy_buffer ? boundary[c.from] : sent[c.from];
      if (shared && copy_buffer)
        waits.push_back(source);
      else
        source.wait();
      cl::Event done;
      if (copy_buffer && shared)
        to.transfers.enqueueCopyBuffer(b[c.from], b[c.to], row_bytes(width, c.first - bands[c.from].read_first()), at, size,
                                       &waits, &done);
      else
        to.transfers.enqueueWriteBuffer(b[c.to], CL_FALSE, at, size,
                                        staging[step % 2].data() + std::size_t(c.first) * width, &waits, &done);
      recorded.push_back({c.to, Stage::halo, done});
      run.devices[c.to].bytes += double(size);
      next[c.to].push_back(done);
    }
    for (std::size_t k = 0; k < n; ++k) {
      workers[k].transfers.flush();
      std::swap(a[k], b[k]);
    }
    ready = std::move(next);
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (bands[k].rows == 0) continue;
    cl::Event down;
    workers[k].dc.queue.enqueueReadBuffer(a[k], CL_FALSE, row_bytes(width, bands[k].halo_top),
                                          row_bytes(width, bands[k].rows),
                                          run.result.pixels.data() + std::size_t(bands[k].first) * width, &ready[k], &down);
    recorded.push_back({int(k), Stage::download, down});
    run.devices[k].bytes += double(row_bytes(width, bands[k].rows));
  }
  for (Worker& w : workers) w.dc.queue.finish(), w.transfers.finish();
  run.wall_ms = ms_since(t0);
  account(run, workers, recorded);
  return run;
}

}  // namespace lesson13
