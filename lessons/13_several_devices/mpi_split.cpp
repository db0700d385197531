#include "mpi_split.hpp"

#ifndef COURSE_HAVE_MPI

namespace lesson13 {
bool mpi_built() { return false; }
int run_mpi(int, char**, const course::Options&, const course::FilterSpec&) {
  throw course::UsageError("--mpi: this build of the course was made without MPI; run without --mpi");
}
}  // namespace lesson13

#else

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "band_run.hpp"
#include "bands.hpp"
#include "device_set.hpp"
#include "record.hpp"
#include "text_table.hpp"

namespace lesson13 {
namespace {

using Clock = std::chrono::steady_clock;

using course::ms_since;

std::size_t bytes_of(int width, int rows) { return std::size_t(width) * rows * sizeof(float); }

// What each rank reports to rank 0 for the table.
struct RankLoad {
  double rows = 0, kernel_ms = 0, exchange_ms = 0, exchanged_bytes = 0;
};

// The body, on every rank; throws on a mistake every rank makes alike.
int mpi_body(const course::Options& options, const course::FilterSpec& filter, int rank, int size) {
  const int r = filter.radius;
  const int steps = std::max(1, options.integer("steps", 0, 1000));
  // One device per rank: of the devices the options name on this machine, the one whose place
  // is the rank's place among the ranks on this machine; or the only one (one per machine).
  std::vector<Worker> workers =
      open_workers(options.text("devices"), options.integer("split-cpu", 0, 256), options.text("device"), filter.weights);
  MPI_Comm machine;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine);
  int local_rank = 0, local_size = 1;
  MPI_Comm_rank(machine, &local_rank);
  MPI_Comm_size(machine, &local_size);
  MPI_Comm_free(&machine);
  if (workers.size() != 1 && static_cast<int>(workers.size()) != local_size)
    throw course::UsageError("--mpi: " + std::to_string(local_size) + " ranks for " + std::to_string(workers.size()) +
                             " devices on this machine; run one rank per device (mpirun -np " +
                             std::to_string(workers.size()) + " on one machine)");
  Worker& w = workers[workers.size() == 1 ? 0 : local_rank];

  // Rank 0 reads the picture and sends it to every rank; a picture it cannot read stops all.
  int dims[2] = {0, 0};
  course::GrayImage image;
  std::string failure;
  if (rank == 0) {
    try {
      image = course::input_gray(options, w.dc);
      dims[0] = image.width, dims[1] = image.height;
    } catch (const std::exception& e) {
      failure = e.what();
      dims[0] = -1;
    }
  }
  MPI_Bcast(dims, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (dims[0] < 0) throw course::InputError(failure);
  const int width = dims[0], height = dims[1];
  if (size > height)
    throw course::UsageError(std::to_string(size) + " ranks for a picture of " + std::to_string(height) +
                             " rows: each needs a band of at least one row");
  image.width = width, image.height = height;
  image.pixels.resize(std::size_t(width) * height);
  MPI_Bcast(image.pixels.data(), static_cast<int>(image.pixels.size()), MPI_FLOAT, 0, MPI_COMM_WORLD);

  // Bands proportional to every rank's speed on the band an even split would give it (from its
  // two probes), the same on every rank.
  std::vector<Worker> mine;
  mine.push_back(std::move(w));
  const double speed =
      probe_costs(mine, image, options.integer("probe-rows", 1, 1 << 16), r).front().rows_per_ms(height / size);
  std::vector<double> speeds(size);
  MPI_Allgather(&speed, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  const std::vector<Band> bands = split_rows(height, speeds, r);
  const Band& b = bands[rank];
  Worker& me = mine.front();
  const cl::CommandQueue& q = me.dc.queue;

  // The band and its halo on the device; T steps, halos by MPI_Sendrecv between them.
  MPI_Barrier(MPI_COMM_WORLD);
  const Clock::time_point t0 = Clock::now();
  const int h = b.read_rows();
  cl::Buffer a(me.dc.context, CL_MEM_READ_WRITE, bytes_of(width, h)), out(me.dc.context, CL_MEM_READ_WRITE, bytes_of(width, h)),
      between(me.dc.context, CL_MEM_READ_WRITE, bytes_of(width, h));
  q.enqueueWriteBuffer(a, CL_TRUE, 0, bytes_of(width, h), image.pixels.data() + std::size_t(b.read_first()) * width);
  std::vector<float>& staging = image.pixels;  // rows at their picture positions
  const std::vector<HaloCopy> copies = halo_copies(bands);
  RankLoad load;
  load.rows = b.rows;
  for (int step = 0; step < steps; ++step) {
    cl::Kernel row = me.row, column = me.column;
    for (auto [kernel, in, to] : {std::tuple{&row, &a, &between}, std::tuple{&column, &between, &out}}) {
      kernel->setArg(0, *in);
      kernel->setArg(1, *to);
      kernel->setArg(2, me.weights);
      kernel->setArg(3, width);
      kernel->setArg(4, h);
      kernel->setArg(5, r);
    }
    std::vector<cl::Event> done(2);
    // Lesson 04's v1 passes: the row pass over band and halo, the column pass over the band.
    q.enqueueNDRangeKernel(row, cl::NullRange, cl::NDRange(std::size_t(h) * width), cl::NullRange, nullptr, &done[0]);
    q.enqueueNDRangeKernel(column, cl::NDRange(std::size_t(b.halo_top) * width), cl::NDRange(std::size_t(b.rows) * width),
                           cl::NullRange, nullptr, &done[1]);
    q.finish();
    for (const cl::Event& e : done)
      load.kernel_ms += (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() - e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
    std::swap(a, out);
    if (step + 1 == steps) break;
    // The exchange: the band down into the staging picture, then, pair by pair of ranks in one
    // order every rank follows (so no two wait on each other), rows out and rows in at once.
    const Clock::time_point x0 = Clock::now();
    q.enqueueReadBuffer(a, CL_TRUE, bytes_of(width, b.halo_top), bytes_of(width, b.rows),
                        staging.data() + std::size_t(b.first) * width);
    for (int low = 0; low < size; ++low)
      for (int high = low + 1; high < size; ++high) {
        if (low != rank && high != rank) continue;
        const int other = low == rank ? high : low;
        const HaloCopy* out_rows = nullptr;
        const HaloCopy* in_rows = nullptr;
        for (const HaloCopy& c : copies) {
          if (c.from == rank && c.to == other) out_rows = &c;
          if (c.from == other && c.to == rank) in_rows = &c;
        }
        if (!out_rows && !in_rows) continue;
        const int send = out_rows ? out_rows->rows * width : 0, receive = in_rows ? in_rows->rows * width : 0;
        MPI_Sendrecv(out_rows ? staging.data() + std::size_t(out_rows->first) * width : nullptr, send, MPI_FLOAT, other,
                     step, in_rows ? staging.data() + std::size_t(in_rows->first) * width : nullptr, receive, MPI_FLOAT,
                     other, step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        load.exchanged_bytes += double(send + receive) * sizeof(float);
        if (in_rows)
          q.enqueueWriteBuffer(a, CL_FALSE, bytes_of(width, in_rows->first - b.read_first()), bytes_of(width, in_rows->rows),
                               staging.data() + std::size_t(in_rows->first) * width);
      }
    q.finish();
    load.exchange_ms += ms_since(x0);
  }
  // Gather every band on rank 0.
  std::vector<float> band(std::size_t(b.rows) * width);
  q.enqueueReadBuffer(a, CL_TRUE, bytes_of(width, b.halo_top), bytes_of(width, b.rows), band.data());
  std::vector<int> counts(size), offsets(size);
  for (int k = 0; k < size; ++k) counts[k] = bands[k].rows * width, offsets[k] = bands[k].first * width;
  course::GrayImage result{width, height, std::vector<float>(rank == 0 ? image.pixels.size() : 0)};
  MPI_Gatherv(band.data(), static_cast<int>(band.size()), MPI_FLOAT, result.pixels.data(), counts.data(), offsets.data(),
              MPI_FLOAT, 0, MPI_COMM_WORLD);
  const double wall_ms = ms_since(t0);
  std::vector<RankLoad> loads(size);
  MPI_Gather(&load, 4, MPI_DOUBLE, loads.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<char> name(64, 0), names(rank == 0 ? 64 * size : 0);
  me.name.copy(name.data(), 63);
  MPI_Gather(name.data(), 64, MPI_CHAR, names.data(), 64, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) return course::kExitOk;

  // Rank 0: the report and the check against T passes on the CPU.
  course::GrayImage expected = course::input_gray(options, me.dc);
  for (int s = 0; s < steps; ++s) expected = course::correlate_separable(expected, filter.weights, filter.weights);
  const auto c = course::compare_images(result.pixels, expected.pixels, width, height, 0.02);
  course::TextTable table;
  table.title = "Lesson 13 over MPI: " + std::to_string(width) + "x" + std::to_string(height) + ", " + filter.describe() +
                ", " + std::to_string(steps) + " steps, " + std::to_string(size) + " ranks";
  table.head = {"rank", "device", "rows", "kernel ms", "exchange ms", "MB exchanged"};
  for (int k = 0; k < size; ++k) {
    std::ostringstream kernel, exchange, mb;
    kernel << std::fixed << std::setprecision(3) << loads[k].kernel_ms;
    exchange << std::fixed << std::setprecision(3) << loads[k].exchange_ms;
    mb << std::fixed << std::setprecision(3) << loads[k].exchanged_bytes / 1e6;
    table.rows.push_back({std::to_string(k), std::string(names.data() + 64 * k), std::to_string(int(loads[k].rows)),
                          kernel.str(), exchange.str(), mb.str()});
  }
  std::ostringstream wall;
  wall << std::fixed << std::setprecision(2) << wall_ms;
  table.notes = {"wall ms, upload to gather on rank 0: " + wall.str() + "; exchange ms: a rank's time from its band "
                 "going down to its halos up, MPI_Sendrecv included",
                 std::string("against ") + std::to_string(steps) + " passes on the CPU: " + c.describe()};
  table.print(std::cout, std::filesystem::path(options.text("output-dir")) / "mpi_results.txt");
  // --record: each rank's row under the name "rank K" (a page quotes `{{...: rank 1 exchange ms}}`
  // from its printed cells), its kernel time, the bytes it exchanged and the rows it computed.
  std::vector<course::ResultRow> recorded(size);
  for (int k = 0; k < size; ++k) {
    recorded[k].variant = "rank " + std::to_string(k);
    recorded[k].kernel_ms = loads[k].kernel_ms;
    recorded[k].end_to_end_ms = wall_ms;
    recorded[k].bytes = loads[k].exchanged_bytes;
    recorded[k].pixels = loads[k].rows * double(width);
    recorded[k].max_error = c.max_abs_error;
    recorded[k].verified = c.ok();
    recorded[k].runs = 1;
  }
  course::record_launcher("mpirun -np " + std::to_string(size) + " build/lessons/lesson_13");
  course::record_table(table.title, course::Roofline{}, recorded, table.head, table.rows, table.notes);
  if (c.ok()) {
    const auto saved = course::output_path(options, "mpi_blurred.png");
    course::save_png(saved, result);
    std::cout << "wrote " << saved.string() << "\n";
  }
  return c.ok() ? course::kExitOk : course::kExitVerificationFailed;
}

}  // namespace

bool mpi_built() { return true; }

int run_mpi(int argc, char** argv, const course::Options& options, const course::FilterSpec& filter) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = course::kExitOk;
  try {
    code = mpi_body(options, filter, rank, size);
  } catch (const course::UsageError&) {
    // Every rank reaches the same mistake: rank 0 says it, all stop.
    std::ostringstream quiet;
    code = course::explain_failure(std::current_exception(), rank == 0 ? std::cerr : quiet);
  } catch (const course::InputError&) {
    std::ostringstream quiet;
    code = course::explain_failure(std::current_exception(), rank == 0 ? std::cerr : quiet);
  } catch (...) {
    // One rank alone failed (an OpenCL error): the others would wait for it forever.
    code = course::explain_failure(std::current_exception());
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  MPI_Finalize();
  return code;
}

}  // namespace lesson13

#endif
