// Lesson 13: the devices one program drives. One context per platform (a context cannot hold
// devices of two platforms), one in-order queue per device for its kernels and one for its
// copies, and lesson 04's row and column passes built for each device.
#pragma once

#include <string>
#include <vector>

#include "course.hpp"

namespace lesson13 {

struct Worker {
  std::string name;            // "[0] pthread-... (PoCL, CPU)" or "sub-device 1 of [0] ..."
  course::DeviceContext dc;    // the device, its platform's shared context, its kernel queue
  cl::CommandQueue transfers;  // a second queue, so that copies may run beside kernels
  int context_index = 0;       // which of the contexts: equal indices may copy buffer to buffer
  cl::Kernel row, column;      // lesson 04's v1 passes (one work-item per pixel, global offsets)
  cl::Buffer weights;          // the 2R+1 weights, in this device's context
};

// The devices --devices SPEC,SPEC (the --device syntax) names, or `device` (--device, else
// $COURSE_DEVICE, else the CPU) cut into --split-cpu K sub-devices. With neither: every GPU when
// there are two or more, else that device in two where it can be cut, else it alone. Throws
// InputError for a SPEC that matches nothing, UsageError for the same device twice, both options
// at once, or more sub-devices than the device makes.
std::vector<Worker> open_workers(const std::string& devices, int split_cpu, const std::string& device,
                                 const std::vector<float>& weights);

// One worker on `dc`'s device and context: its transfer queue, and lesson 04's passes built for it.
Worker make_worker(const course::DeviceContext& dc, const std::string& name, int context_index,
                   const std::vector<float>& weights);

// How many contexts the workers use (1 when they share one).
int context_count(const std::vector<Worker>& workers);

}  // namespace lesson13
