# course_add_lessons(MANIFEST): every lesson of lessons/lessons.txt (see its header), in order.
#
# For lesson NN in lessons/NN_name/:
#   - lesson_NN_lib: every .cpp of the folder but main.cpp, check.cpp and *_check.cpp: the
#     lesson's own host modules, linked by its program, its check and its tests (and by the
#     lessons that build on it);
#   - lesson_NN: main.cpp and the library, the program students run (with
#     harness/runs/record_option.cpp, which gives it `--record FILE`). A later lesson among the
#     lessons it uses links this program only (lesson 05 runs lesson 11's winners of its blur),
#     so no lesson's library depends on a lesson that builds on it;
#   - check_NN: the exercise's check program (harness/check_main.cpp, check.cpp and the folder's
#     *_check.cpp helpers). An exercise with C++ files (.hpp in the manifest) gets two: check_NN
#     compiled with exercises/, built only when the exercise is checked (so a learner's
#     half-written header breaks nothing else), and check_NN_solution compiled with solutions/;
#     and a third, check_NN_graded, compiled with the copy of another folder's files that
#     `./course grade --from DIR` (or `check NN --from DIR`) makes in the build folder's graded/.
# and the tests every lesson gets: it runs and verifies; its exercise passes with the solution
# (skipped in a tree without solutions/) and fails as shipped.
function(course_add_lessons manifest)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest})
  # Deleting or adding solutions/ re-runs the configuration (check programs depend on it).
  file(GLOB solution_folders CONFIGURE_DEPENDS LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/solutions/*)
  file(STRINGS ${manifest} lines REGEX "^[0-9][0-9] *\\|")
  foreach(line IN LISTS lines)
    string(REPLACE "|" ";" fields "${line}")
    set(values "")
    foreach(field IN LISTS fields)
      string(STRIP "${field}" field)
      list(APPEND values "${field}")
    endforeach()
    list(LENGTH values count)
    if(NOT count EQUAL 6)
      message(FATAL_ERROR "${manifest}: '${line}' has ${count} fields, not 6")
    endif()
    list(GET values 0 number)
    list(GET values 1 folder)
    list(GET values 2 exercise_files)
    list(GET values 3 uses)
    list(GET values 4 test_args)
    separate_arguments(exercise_files UNIX_COMMAND "${exercise_files}")
    separate_arguments(uses UNIX_COMMAND "${uses}")
    separate_arguments(test_args UNIX_COMMAND "${test_args}")
    course_add_lesson(${number} ${folder} EXERCISE_FILES ${exercise_files} USES ${uses} TEST_ARGS ${test_args})
    # The lessons' numbers, in order, for the rest of the build: get_property(... GLOBAL PROPERTY COURSE_LESSONS).
    set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS ${number})
    list(GET values 4 test_line)
    list(GET values 5 bench)
    separate_arguments(bench UNIX_COMMAND "${bench}")
    course_json_list(exercise_files)
    course_json_list(uses)
    course_json_list(bench)
    course_json_string(test_line)
    list(APPEND entries "    {\"number\": \"${number}\", \"folder\": \"${folder}\", \"exercise_files\": ${exercise_files}, \"builds_on\": ${uses}, \"test_arguments\": ${test_line}, \"bench\": ${bench}}")
  endforeach()
  # The same list as data, for every tool that is not CMake: build/manifest.json.
  list(JOIN entries ",\n" entries)
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/manifest.json CONTENT "{\n  \"lessons\": [\n${entries}\n  ]\n}\n" @ONLY)
endfunction()

# course_json_string(VAR): VAR's text as a JSON string; course_json_list(VAR): VAR's list as a
# JSON list of strings.
macro(course_json_string var)
  string(REPLACE "\\" "\\\\" ${var} "${${var}}")
  string(REPLACE "\"" "\\\"" ${var} "${${var}}")
  set(${var} "\"${${var}}\"")
endmacro()

macro(course_json_list var)
  set(items "")
  foreach(item IN LISTS ${var})
    course_json_string(item)
    list(APPEND items "${item}")
  endforeach()
  list(JOIN items ", " items)
  set(${var} "[${items}]")
endmacro()

function(course_add_lesson number folder)
  cmake_parse_arguments(ARG "" "" "EXERCISE_FILES;USES;TEST_ARGS" ${ARGN})
  set(dir ${PROJECT_SOURCE_DIR}/lessons/${folder})
  if(NOT EXISTS ${dir}/main.cpp)
    message(FATAL_ERROR "lessons/lessons.txt names ${folder}, which has no main.cpp")
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  set(check_helpers ${sources})
  list(FILTER check_helpers INCLUDE REGEX "_check\\.cpp$")
  list(FILTER sources EXCLUDE REGEX "/(main|check)\\.cpp$|_check\\.cpp$")

  # The lesson's library and program.
  set(lib lesson_${number}_lib)
  if(sources)
    add_library(${lib} STATIC ${sources})
    target_include_directories(${lib} PUBLIC ${dir})
    target_link_libraries(${lib} PUBLIC course_common course_runs course_figures course_filters)
  else()
    add_library(${lib} INTERFACE)
    target_include_directories(${lib} INTERFACE ${dir})
    target_link_libraries(${lib} INTERFACE course_common course_runs course_figures course_filters)
  endif()
  set(later_lessons "")
  foreach(used IN LISTS ARG_USES)
    if(used GREATER number)
      list(APPEND later_lessons lesson_${used}_lib)
    elseif(sources)
      target_link_libraries(${lib} PUBLIC lesson_${used}_lib)
    else()
      target_link_libraries(${lib} INTERFACE lesson_${used}_lib)
    endif()
  endforeach()
  add_executable(lesson_${number} ${dir}/main.cpp)
  target_link_libraries(lesson_${number} PRIVATE ${lib} ${later_lessons} course_record_option)
  set_target_properties(lesson_${number} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${COURSE_LESSON_BIN_DIR})
  if(COURSE_BUILD_TESTS)
    # Through tests/fits_80_columns.py: the lesson's status, or a failure for a line wider than 80 columns.
    find_program(COURSE_PYTHON3 python3 REQUIRED)
    set(name "lesson ${number} runs, verifies its result and prints no line wider than 80 columns")
    add_test(NAME ${name}
             COMMAND ${COURSE_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/fits_80_columns.py $<TARGET_FILE:lesson_${number}>
                     ${ARG_TEST_ARGS} --output-dir test-out/${folder}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
    # What the run writes in test-out/ (its pictures) is checked by tests that require this fixture.
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 FIXTURES_SETUP lesson_${number}_output)
  endif()

  # Check helpers that compile no learner C++ form a library the tests and later checks share.
  set(cpp_files ${ARG_EXERCISE_FILES})
  list(FILTER cpp_files INCLUDE REGEX "\\.(hpp|h|cpp)$")
  set(checks_lib lesson_${number}_checks)
  add_library(${checks_lib} INTERFACE)
  target_link_libraries(${checks_lib} INTERFACE ${lib} course_harness)
  foreach(used IN LISTS ARG_USES)
    if(NOT used GREATER number)
      target_link_libraries(${checks_lib} INTERFACE lesson_${used}_checks)
    endif()
  endforeach()
  if(check_helpers AND NOT cpp_files)
    add_library(${checks_lib}_objects STATIC ${check_helpers})
    target_link_libraries(${checks_lib}_objects PUBLIC ${lib} course_harness)
    target_link_libraries(${checks_lib} INTERFACE ${checks_lib}_objects)
  endif()
  if(NOT EXISTS ${dir}/check.cpp)
    return()
  endif()

  set(root ${PROJECT_SOURCE_DIR})
  set(run_check ${PROJECT_SOURCE_DIR}/tests/run_check.sh)
  set(layer $<TARGET_FILE:course_guard_layer>)
  if(cpp_files)
    set_property(GLOBAL PROPERTY course_cpp_exercise_${number} TRUE)
    # Two programs, each compiled with one folder's C++ files.
    foreach(variant exercises solutions graded)
      set(target check_${number})
      set(variant_root ${root})
      if(variant STREQUAL "graded")
        set(target check_${number}_graded)
        set(variant_root ${CMAKE_BINARY_DIR})
      endif()
      if(variant STREQUAL "solutions")
        set(target check_${number}_solution)
        if(NOT IS_DIRECTORY ${root}/solutions/${folder})
          continue()
        endif()
      endif()
      add_executable(${target} ${PROJECT_SOURCE_DIR}/harness/check_main.cpp ${dir}/check.cpp ${check_helpers})
      target_include_directories(${target} PRIVATE ${variant_root}/${variant}/${folder})
      target_compile_definitions(${target} PRIVATE COURSE_CHECK_BUILT_FROM="${variant}")
      target_link_libraries(${target} PRIVATE ${checks_lib})
      set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
      if(NOT variant STREQUAL "solutions")
        # Built by `./course check NN` or `grade` (and their tests), never by the tour or the lessons.
        set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
      endif()
    endforeach()
    set(pass_program check_${number}_solution)
    set(fail_build BUILD ${CMAKE_BINARY_DIR} check_${number})
  else()
    add_executable(check_${number} ${PROJECT_SOURCE_DIR}/harness/check_main.cpp ${dir}/check.cpp)
    target_link_libraries(check_${number} PRIVATE ${checks_lib})
    set_target_properties(check_${number} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
    set(pass_program check_${number})
    set(fail_build "")
  endif()
  if(COURSE_BUILD_TESTS)
    set(bin ${CMAKE_BINARY_DIR}/bin)
    set(reports ${CMAKE_BINARY_DIR}/test-out/check)
    add_test(NAME "exercise ${number} passes its check with the solution"
             COMMAND ${run_check} pass ${root}/solutions/${folder} ${layer} ${bin}/${pass_program} --report-dir ${reports}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
    add_test(NAME "exercise ${number} fails its check as shipped"
             COMMAND ${run_check} fail ${root}/exercises/${folder} ${layer} ${bin}/check_${number} --report-dir ${reports}
                     ${fail_build}
             WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
    set_tests_properties("exercise ${number} passes its check with the solution"
                         "exercise ${number} fails its check as shipped" PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()
