# Recorded runs (harness/runs/record.cpp, data/runs/) and the pages that quote them
# (harness/site/expand_runs.py); included from tests/CMakeLists.txt.
set(records_out ${CMAKE_BINARY_DIR}/test-out/records)
if(COURSE_PYTHON3 AND TARGET lesson_02 AND TARGET lesson_09 AND TARGET lesson_10 AND TARGET lesson_12)
  add_test(NAME "a lesson run with --record writes its command, commit, date, device, every row of its table and the copies its rows divide by as JSON"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/record_run.py ${records_out}/02
                   $<TARGET_FILE:lesson_02> --size 64x48 --repeat 1)
  add_test(NAME "a lesson that prints several tables records them all in one file"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/record_run.py ${records_out}/09
                   $<TARGET_FILE:lesson_09> --size 64x48 --repeat 1)
  add_test(NAME "lesson 10 records each row's wall time, no shorter than its events' time, and prints it beside them within 80 columns"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/record_run.py --wall ${records_out}/10
                   $<TARGET_FILE:lesson_10> --size 256x192 --repeat 3)
  if(TARGET lesson_13)
    add_test(NAME "lesson 13 records every row of its table of several devices, each under a name of its own, with its marks"
             COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/record_run.py ${records_out}/13
                     $<TARGET_FILE:lesson_13> --split-cpu 2 --size 64x48 --repeat 2 --steps 1)
  endif()
  # The sweeps a lesson prints before its results table, recorded after it under names a page
  # quotes (record_sweep()), every number of theirs quoted back as printed. (Lesson 07 sweeps local
  # memory up to 48 KiB where the device has that much: llvmpipe has less.)
  set(sweeps ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/record_sweeps.py)
  if(TARGET lesson_07)
    add_test(NAME "lesson 07 records its divergence, latency, occupancy and work-group sweeps after its results table, each row by name"
             COMMAND ${sweeps} ${records_out}/sweeps-07
                     --table "2:Divergence:classes_1,classes_2,classes_4,classes_8,classes_16,classes_32"
                     --table "3:Latency hiding:items_32,items_128,items_512,items_2048"
                     --table "4:Occupancy:kib_1,kib_4,kib_16,..."
                     --table "5:Work-group size:8x8,16x4,32x4,16x16,32x8,64x4,256x1,32x32,64x64,128x64,..."
                     -- $<TARGET_FILE:lesson_07> --size 64x48 --repeat 1 --sweep-mib 8)
  endif()
  if(TARGET lesson_05)
    add_test(NAME "lesson 05 records its strip sweep after its results table, each strip by name"
             COMMAND ${sweeps} ${records_out}/sweeps-05 --table "2:Strip sweep:strip_64,strip_128"
                     -- $<TARGET_FILE:lesson_05> --size 67x53 --repeat 1 --untuned --variant single_pass_blocked
                     --strips 64,128)
  endif()
  if(TARGET lesson_11)
    add_test(NAME "lesson 11 records each search's candidates after its results table, each by its parameters"
             COMMAND ${sweeps} ${records_out}/sweeps-11
                     --table "2:Exhaustive search, separable:vector_passes_16x1_o1_v8,..."
                     --table "3:Budgeted search (2), separable:vector_passes_*_v8,vector_passes_*_v8"
                     -- $<TARGET_FILE:lesson_11> --size 64x48 --op separable --variant vector_passes --budget 2
                     --repeat 1 --cache ${records_out}/sweeps-11/cache.json)
  endif()
  add_test(NAME "a --record file in a folder that cannot be made exits 5 and names the file"
           COMMAND ${expect} 5 "cannot write the record '/dev/null/run.json'" ${records_out}/bad
                   $<TARGET_FILE:lesson_02> --size 16x16 --repeat 1 --record /dev/null/run.json --output-dir ${records_out}/bad)
  add_test(NAME "a folder given to --record exits 5 before the lesson runs"
           COMMAND ${expect} 5 "--record needs a file name, not the folder" ${records_out}/folder
                   $<TARGET_FILE:lesson_02> --size 16x16 --repeat 1 --record ${PROJECT_SOURCE_DIR}/data --output-dir ${records_out}/folder)
  add_test(NAME "a page's placeholders expand from a recorded run; a missing name or a marked row fails, naming the page"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/expand_runs_test.py $<TARGET_FILE:lesson_02>
                   $<TARGET_FILE:lesson_10> $<TARGET_FILE:lesson_12> ${records_out}/expand)
endif()
if(COURSE_PYTHON3)
  add_test(NAME "every page's placeholders expand from the course's recorded runs"
           COMMAND ${COURSE_PYTHON3} ${PROJECT_SOURCE_DIR}/harness/site/expand_runs.py --check ${PROJECT_SOURCE_DIR}/docs)
  add_test(NAME "no page's prose holds a measured figure typed by hand that is not in the shrinking legacy list"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/page_numbers.py ${PROJECT_SOURCE_DIR}/docs)
  add_test(NAME "a figure typed by hand into a sentence of lesson 02's page fails the page-numbers check"
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/page_numbers_catches.sh ${COURSE_PYTHON3} ${PROJECT_SOURCE_DIR}/docs
                   ${records_out}/typed)
endif()
# Page 06's min and max per output, counted in the PTX that clang-15 makes of lesson 06's kernels.
# Neither clang-15 nor libclc-15 is among the packages ./course installs: without them it skips.
if(COURSE_PYTHON3 AND TARGET course-ptx-minmax)
  set(ptx_test "course-ptx-minmax counts the min and max per output on one work-item's path through clang-15's PTX of the merged medians and records them as a run a page quotes (skipped without clang-15 or libclc-15)")
  add_test(NAME "${ptx_test}"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/ptx_minmax.py $<TARGET_FILE:course-ptx-minmax>
                   ${records_out}/ptx-minmax)
  set_tests_properties("${ptx_test}" PROPERTIES SKIP_RETURN_CODE 77)
endif()
# What NVIDIA's profiler counts in the OpenCL kernels' PTX (harness/tools/ncu_profile.py, run on a
# GPU): its stand-ins in the PTX and its record, without a GPU.
if(COURSE_PYTHON3)
  add_test(NAME "ncu_profile.py stands in for a constant argument and a one-launch NDRange in the PTX and records what a page quotes"
           COMMAND ${COURSE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/ncu_profile_test.py ${PROJECT_SOURCE_DIR}
                   ${records_out}/ncu-profile)
endif()
find_package(Doxygen QUIET)
if(TARGET lesson_02 AND DOXYGEN_FOUND)
  set(docs_runs_test "./course docs --runs DIR builds the site from a run recorded on the spot, each page naming the device it shows")
  add_test(NAME "${docs_runs_test}"
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/docs_runs.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}
                   $<TARGET_FILE:lesson_02> ${records_out}/docs-runs)
  set_tests_properties("${docs_runs_test}" PROPERTIES RESOURCE_LOCK course_site TIMEOUT 600)
endif()
