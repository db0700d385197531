// Lesson 10: a picture of a frame stream drawn from its events' profiling stamps.
#pragma once

#include <filesystem>
#include <vector>

#include "course.hpp"
#include "transfer_pipeline.hpp"

// Draws one band per run (runs[k] used k + 1 queues), one lane per queue, every command a bar
// from its START to its END stamp, all on one time scale: uploads blue, row passes light green,
// column passes dark green, downloads orange. Gaps in a lane are time that queue sat idle.
void save_stream_timeline(const std::filesystem::path& path, const std::vector<course::StreamRun>& runs);
