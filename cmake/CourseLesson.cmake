# course_add_lesson(<NN_name> [TEST_ARGS args...])
#
# Adds the lesson in lessons/<NN_name>/: an executable lesson_NN built from every .cpp file of
# the folder except check.cpp, which (when present) holds the exercise's verification cases and
# joins the shared checker. Adds the tests every lesson gets:
#   - the lesson runs and verifies (with TEST_ARGS, kept small so the suite stays quick);
#   - when it has an exercise: the solution passes its check, the shipped exercise fails it.
function(course_add_lesson name)
  cmake_parse_arguments(ARG "" "" "TEST_ARGS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  if(NOT EXISTS ${dir}/main.cpp)
    return()
  endif()
  string(SUBSTRING ${name} 0 2 number)
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  list(FILTER sources EXCLUDE REGEX "/check\\.cpp$")
  set(target lesson_${number})
  add_executable(${target} ${sources})
  target_link_libraries(${target} PRIVATE course_common)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${COURSE_LESSON_BIN_DIR})
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS ${name})

  if(COURSE_BUILD_TESTS)
    add_test(NAME "lesson ${number} runs and verifies its result"
             COMMAND ${target} ${ARG_TEST_ARGS} --output-dir ${CMAKE_BINARY_DIR}/test-out/${name})
    set_tests_properties("lesson ${number} runs and verifies its result" PROPERTIES SKIP_RETURN_CODE 77)
  endif()

  if(EXISTS ${dir}/check.cpp)
    target_sources(course_exercise_checks PRIVATE ${dir}/check.cpp)
    if(COURSE_BUILD_TESTS)
      set(root ${PROJECT_SOURCE_DIR})
      add_test(NAME "exercise ${number} passes its check with the solution"
               COMMAND course-check --expect pass --from ${root}/solutions ${number}
               WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
      add_test(NAME "exercise ${number} fails its check as shipped"
               COMMAND course-check --expect fail --from ${root}/exercises ${number}
               WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
      set_tests_properties("exercise ${number} passes its check with the solution"
                           "exercise ${number} fails its check as shipped" PROPERTIES SKIP_RETURN_CODE 77)
    endif()
  endif()
endfunction()
