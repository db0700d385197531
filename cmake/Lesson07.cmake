# Lesson 07's exercise has a host-side part: the learner's work_group_choice.hpp. The checker
# cannot compile C++ at run time, so the cases that try it (work_group_cases.cpp) are compiled
# twice into the checker: once against exercises/, once against solutions/. `course-check 07`
# then runs the variant that matches the folder it checks; `./course check 07` rebuilds first,
# so an edited header is always the one tested.
set(lesson07_dir ${PROJECT_SOURCE_DIR}/lessons/07_warps_and_occupancy)
if(TARGET lesson_07 AND EXISTS ${lesson07_dir}/work_group_cases.cpp)
  # The lesson itself uses the reference answer for its own run-time choice, and must not
  # compile the cases (they belong to the checker).
  target_include_directories(lesson_07 PRIVATE ${PROJECT_SOURCE_DIR}/solutions/07_warps_and_occupancy)
  get_target_property(lesson07_sources lesson_07 SOURCES)
  list(FILTER lesson07_sources EXCLUDE REGEX "/work_group_cases\\.cpp$")
  set_target_properties(lesson_07 PROPERTIES SOURCES "${lesson07_sources}")

  foreach(variant exercises solutions)
    set(objects lesson07_work_group_cases_${variant})
    add_library(${objects} OBJECT ${lesson07_dir}/work_group_cases.cpp)
    target_link_libraries(${objects} PRIVATE course_common)
    target_include_directories(${objects} PRIVATE ${PROJECT_SOURCE_DIR}/${variant}/07_warps_and_occupancy
                                                  ${lesson07_dir})
    target_compile_definitions(${objects} PRIVATE LESSON07_CASES=work_group_cases_${variant})
    # An OBJECT library has no link step of its own: its INTERFACE sources reach the programs
    # that link it (course-check, course-tests), whose link step then takes these objects.
    target_sources(course_exercise_checks INTERFACE $<TARGET_OBJECTS:${objects}>)
  endforeach()
endif()
