// Lesson 04's access trace. In a normal build every TRACE_* macro is empty and costs nothing.
// Built with -D COURSE_TRACE, each kernel takes three more arguments (the log and which
// work-group to watch), and the work-items of that one group write down every global and
// local address they touch as (kind, source line, address in floats). The host groups them
// into warps and counts 32-byte sectors, 128-byte lines and bank conflicts
// (lessons/04_separable_coalescing/trace_access.cpp).
#ifdef COURSE_TRACE
#define TRACE_RECORDS 96 /* kTraceRecordsPerItem on the host */
#define TRACE_ARGS , __global int *trace_log, const int trace_group_x, const int trace_group_y
#define TRACE_START                                                                                           \
  const int trace_on_ = get_group_id(0) == trace_group_x && get_group_id(1) == trace_group_y;                \
  int trace_count_ = 0;                                                                                       \
  __global int* trace_mine_ = trace_log + (get_local_id(1) * get_local_size(0) + get_local_id(0)) * TRACE_RECORDS * 3
#define TRACE_ACCESS(kind, address)                                    \
  do {                                                                 \
    if (trace_on_ && trace_count_ < TRACE_RECORDS) {                   \
      trace_mine_[3 * trace_count_] = (kind);                          \
      trace_mine_[3 * trace_count_ + 1] = __LINE__;                    \
      trace_mine_[3 * trace_count_ + 2] = (int)(address);              \
      ++trace_count_;                                                  \
    }                                                                  \
  } while (0)
// The same record as an expression that gives back `index`: buffer[TRACE_INDEX(0, i)] reads
// buffer[i] and records it (the checker rewrites a learner's kernel this way).
#define TRACE_INDEX(kind, index)                                                                     \
  ((trace_on_ && trace_count_ < TRACE_RECORDS                                                        \
        ? (trace_mine_[3 * trace_count_] = (kind), trace_mine_[3 * trace_count_ + 1] = __LINE__,     \
           trace_mine_[3 * trace_count_ + 2] = (int)(index), ++trace_count_)                         \
        : 0),                                                                                        \
   (index))
#else
#define TRACE_INDEX(kind, index) (index)
#define TRACE_ARGS
#define TRACE_START do { } while (0)
#define TRACE_ACCESS(kind, address) do { } while (0)
#endif
#define TRACE_GLOBAL_READ(address) TRACE_ACCESS(0, address)
#define TRACE_GLOBAL_WRITE(address) TRACE_ACCESS(1, address)
#define TRACE_LOCAL_READ(address) TRACE_ACCESS(2, address)
#define TRACE_LOCAL_WRITE(address) TRACE_ACCESS(3, address)
