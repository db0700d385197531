/// @file oclgrind.hpp
/// @brief The checker's second opinion: one case of the learner's kernel run again under Oclgrind.
///
/// Oclgrind (Debian package `oclgrind`) runs OpenCL kernels on a simulated device and reports
/// what a real device hides: data races (on local and global memory), reads and writes outside a
/// buffer or a static array, and barriers that not every work-item of a group reaches, each with
/// the source line and the work-items. The simulation is slow (a whole check takes minutes), so
/// the checker runs one small case only: its check program starts itself again under the
/// `oclgrind` launcher with `--only-case N`, and reads the log that Oclgrind writes.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief The `oclgrind` launcher's path, or "" when it is not installed. COURSE_OCLGRIND names
/// another launcher; COURSE_OCLGRIND=none acts as if Oclgrind were missing.
std::string oclgrind_launcher();

/// @brief The one line a report prints where Oclgrind is missing.
std::string oclgrind_missing_line();

/// @brief One place in the kernel that Oclgrind names: a work-item and a source line.
struct OclgrindSite {
  std::string work_item;  ///< "global (3, 0) in group (0, 0)", as the report prints it.
  std::string file;       ///< The kernel file as the program builder named it.
  int line = 0;           ///< 0 when Oclgrind gave no line.
  bool store = false;     ///< The instruction was a store (else a load or other).
};

/// @brief One error from Oclgrind's log.
struct OclgrindFinding {
  enum class Kind { kRace, kOutOfBounds, kArrayIndex, kBarrier, kOther } kind = Kind::kOther;
  std::string headline;     ///< Oclgrind's first line ("Read-write data race at local memory address 0x...").
  std::string kernel;       ///< The kernel's name.
  std::string space;        ///< "local", "global", "constant" or "private" (races, invalid accesses).
  bool read = true;         ///< An invalid read (else a write).
  /// The byte offset inside the buffer (invalid accesses), negative before its start: Oclgrind's
  /// address is the buffer's number, then a 48-bit offset, so an access a little before buffer N
  /// reads as buffer N - 1 near the top of its offsets, and is counted back to buffer N.
  std::int64_t offset = 0;
  std::uint64_t buffer = 0; ///< Oclgrind's number of the buffer (invalid accesses).
  std::size_t access_bytes = 0;    ///< Size of the access (invalid accesses).
  long long index = -1, extent = -1;  ///< A static array's index and size ("Index (N) exceeds ... (M)").
  std::vector<OclgrindSite> sites;    ///< Race: the two sides; otherwise the one place.
};

/// @brief The errors of an Oclgrind log, in order (repeats of the same lines dropped).
std::vector<OclgrindFinding> parse_oclgrind_log(const std::string& log);

/// @brief What one run under Oclgrind gave.
struct OclgrindRun {
  bool started = false;    ///< The launcher ran.
  bool timed_out = false;  ///< Stopped after the time limit.
  double seconds = 0;      ///< Wall time.
  std::string log;         ///< Oclgrind's messages.
};

/// @brief Starts `command` (a program's path, then its arguments) in a process group of its own,
/// its input and output on /dev/null, with this process's environment where each "NAME=value" of
/// `environment` takes NAME's place. All of it is made before fork() (the check's process has
/// threads). Returns the child's process id, or -1 where none could be started.
pid_t start_silenced(const std::vector<std::string>& command, const std::vector<std::string>& environment);

/// @brief Runs `command` (a program and its arguments) under Oclgrind with race detection, its
/// log in a temporary file, stopped after `timeout_s` seconds. Oclgrind 21.10 can abort at exit
/// ("corrupted double-linked list"): the exit status is not trusted, only the log.
OclgrindRun run_under_oclgrind(const std::vector<std::string>& command, int timeout_s);

/// @brief The first sentence of an oclgrind_cause() without its opening ("a read outside the
/// __local array `lines` at line 37 (...): ... reads `lines[-1]`, before the start of `lines`.").
std::string oclgrind_summary(const std::string& cause);

/// @brief A buffer of the run under Oclgrind, known by its number in Oclgrind's addresses: its
/// size, and the kernel argument it was set as (-1: not set as one).
struct OclgrindBuffer {
  std::size_t bytes = 0;
  std::string kernel;
  int argument = -1;
};

/// @brief The cause, in one sentence with its evidence on the lines after it, of the first
/// finding that names a mistake (a race, a read or write outside a buffer, a barrier not every
/// work-item reaches); "" when the findings name none. Source lines are quoted from the files of
/// `folder`; `which` names the case that ran ("this case"). An access outside a buffer names the
/// array that Oclgrind's address lies in: a __local array of the kernel (by its number among
/// them), or the kernel argument that `buffers` knows the buffer as (else, for global memory, the
/// one argument of its kind the line uses), with the signed index against its size where known.
/// `outputs_right`: the case's outputs were right, so the value read never reached one.
std::string oclgrind_cause(const std::vector<OclgrindFinding>& findings, const std::filesystem::path& folder,
                           const std::string& which, const std::map<std::uint64_t, OclgrindBuffer>& buffers = {},
                           bool outputs_right = false);

/// @brief The kernel arguments set to buffers since the program started, in order: the kernel's
/// name, the argument's index and the buffer (recorded by the check program's own clSetKernelArg,
/// which passes every call on).
struct BufferArgument {
  std::string kernel;
  int index = 0;
  const void* memory = nullptr;
};
std::vector<BufferArgument> buffer_arguments();

/// @brief The kernel's argument a line accesses outside its buffer: its name and its elements'
/// size in bytes, from the kernel's parameters (a `__global` or `__constant` pointer) and the
/// `name[` on the line, a store's left of `=` for a write; {"", 0} when the line does not tell.
std::pair<std::string, std::size_t> accessed_argument(const std::string& source, const std::string& kernel,
                                                      const std::string& line, bool write);

}  // namespace course
