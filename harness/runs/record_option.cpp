// Built into every lesson's program (cmake/CourseLesson.cmake): it gives the lesson's image
// options `--record FILE` (record.hpp) before main() starts, so that no lesson's code names the
// record for the option to exist.
#include "lesson.hpp"
#include "record.hpp"

namespace {
const bool kRecordOffered = (course::add_to_image_options(course::add_record_option), true);
}  // namespace
