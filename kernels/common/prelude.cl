// The prelude the course puts before every kernel file it builds (common/program.cpp).
// POISON_LOCAL(ptr, count) does nothing unless the options hold -D COURSE_POISON_LOCAL: then every
// work-item of the group writes NaN over the local array, and a barrier makes sure the poison is
// in place before the kernel's own loads, so that reading local memory before writing it shows.
#ifdef COURSE_POISON_LOCAL
#define POISON_LOCAL(ptr, count)                                                                  \
  do {                                                                                            \
    const int poison_first_ = (int)(get_local_id(2) * get_local_size(1) * get_local_size(0) +     \
                                    get_local_id(1) * get_local_size(0) + get_local_id(0));       \
    const int poison_step_ = (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));    \
    for (int poison_i_ = poison_first_; poison_i_ < (int)(count); poison_i_ += poison_step_)      \
      (ptr)[poison_i_] = NAN;                                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
  } while (0)
#else
#define POISON_LOCAL(ptr, count) do { } while (0)
#endif
