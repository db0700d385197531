/// @file trace_access.hpp
/// @brief Making memory behaviour visible without a GPU: analysing the addresses the work-items
/// of one work-group touched (recorded by a kernel built with -D COURSE_TRACE, see
/// kernels/04_separable_coalescing/access_trace.h) the way a GPU's memory system would see them.
#pragma once

#include <iosfwd>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "device.hpp"

namespace course {

/// @brief What a recorded access was.
enum class AccessKind : int {
  kGlobalRead = 0,   ///< A load from a __global buffer.
  kGlobalWrite = 1,  ///< A store to a __global buffer.
  kLocalRead = 2,    ///< A load from __local memory.
  kLocalWrite = 3,   ///< A store to __local memory.
};

/// @brief "global read", "global write", "local read" or "local write".
std::string access_kind_name(AccessKind kind);

/// @brief Ints per record in the trace buffer (kind, source line, address in floats), and
/// records per work-item; the kernel side (access_trace.h) uses the same numbers.
constexpr int kTraceFields = 3;
/// @brief Records each work-item may write before the rest are dropped.
constexpr int kTraceRecordsPerItem = 96;

/// @brief One source line's accesses, summed over every warp of the traced work-group.
///
/// A warp-wide access is the n-th access that line made in each work-item of one warp: on a GPU
/// those execute as one instruction. Global accesses are served in 32-byte sectors of 128-byte
/// cache lines (NVIDIA since Volta; 64-byte and 128-byte requests on older GPUs); local accesses
/// by 32 banks of 4-byte words, where k different words in one bank take k passes (the same word
/// is broadcast, no conflict).
struct AccessSiteSummary {
  AccessKind kind = AccessKind::kGlobalRead;  ///< What the line does.
  int line = 0;                               ///< Line in the kernel file.
  int warp_accesses = 0;                      ///< Warp-wide accesses made by this line.
  int items = 0;                              ///< Work-item accesses made by this line.
  long segments32 = 0;                        ///< Global: 32-byte sectors needed, summed.
  long segments64 = 0;                        ///< Global: 64-byte segments needed, summed.
  long segments128 = 0;                       ///< Global: 128-byte lines needed, summed.
  long ideal128 = 0;                          ///< Global: 128-byte lines if perfectly packed.
  long ideal32 = 0;                           ///< Global: 32-byte sectors if perfectly packed.
  std::set<long> sectors;                     ///< Global: different sectors touched by the group.
  long bank_passes = 0;                       ///< Local: passes needed, summed (1 per access at best).
  int worst_conflict = 0;                     ///< Local: the worst n-way conflict of one access.
  std::string picture;                        ///< Text picture of the first warp's first access.
  std::vector<int> first_access;              ///< The first warp's first access: its addresses, in floats.
};

/// @brief Groups the raw trace (work_items x kTraceRecordsPerItem x kTraceFields ints, kind -1
/// where nothing was recorded) into warps of `warp` work-items and summarises each source line.
std::vector<AccessSiteSummary> analyse_trace(const std::vector<int>& raw, int work_items, int warp);

/// @brief Prints one line per site (sectors and lines per warp access, bank conflicts) and the pictures.
void print_trace(std::ostream& out, const std::string& title, const std::vector<AccessSiteSummary>& sites,
                 bool pictures);

/// @brief One line of totals for a kernel, per `warp` outputs written (so that kernels with
/// different work-group sizes compare): the 32-byte sectors and 128-byte lines its warp-wide
/// reads ask for; the different sectors the whole group reads (what reaches L2 when L1 keeps
/// every sector between its uses: repeated reads of one sector then cost one fetch); and
/// local-memory passes (accesses times their conflict degree).
void print_trace_totals(std::ostream& out, const std::vector<AccessSiteSummary>& sites, int warp);

/// @brief One access a traced work-item made.
struct TracedAccess {
  int item = 0;                               ///< The work-item: local id y * group width + local id x.
  AccessKind kind = AccessKind::kGlobalRead;  ///< What it did.
  int line = 0;                               ///< Line in the kernel file.
  int index = 0;                              ///< Index into the buffer, in elements.
};

/// @brief The raw trace (as analyse_trace() takes it) as a list of accesses, work-item by work-item.
std::vector<TracedAccess> traced_accesses(const std::vector<int>& raw, int work_items);

/// @brief A kernel the course did not write, made to record its global accesses: `source` is the
/// built program's text (CL_PROGRAM_SOURCE: the prelude, then the file after a `#line`); in the
/// body of `kernel`, every `name[index]` of the buffers named in `buffers` becomes
/// `name[TRACE_INDEX(kind, index)]`, the kernel gets TRACE_ARGS and TRACE_START, and
/// access_trace.h goes first. Build the result with -D COURSE_TRACE and set the three trace
/// arguments after the kernel's own. Returns "" when the text has no such kernel; an access
/// outside the kernel's body (in a helper function) is not recorded.
std::string traced_source(const std::string& source, const std::string& kernel,
                          const std::vector<std::pair<std::string, AccessKind>>& buffers);

/// @brief traced_source() of a built program, built with `options` and -D COURSE_TRACE. Throws
/// std::runtime_error saying why when the kernel cannot be traced that way.
cl::Program build_traced_program(const DeviceContext& dc, const cl::Program& program, const std::string& kernel,
                                 const std::vector<std::pair<std::string, AccessKind>>& buffers,
                                 const std::string& options);

/// @brief Runs `kernel` (from build_traced_program(), its own arguments set; the trace's three
/// come after them, from `first_trace_arg`) over `global` in groups of `local`, recording the
/// accesses of work-group (group_x, group_y).
std::vector<TracedAccess> trace_group(const DeviceContext& dc, cl::Kernel& kernel, int first_trace_arg,
                                      const cl::NDRange& global, const cl::NDRange& local, int group_x, int group_y);

}  // namespace course
