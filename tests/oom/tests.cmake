# Out of memory (issue 14 item 3): every allocation failure ends in
# "error: out of memory" and a failed status, with no crash, no leak and no
# partial output. Only in -DHILO_FAULT_INJECTION=ON builds (make build-san),
# which honour HILO_FAIL_ALLOC=K.
if(HILO_FAULT_INJECTION)
  add_executable(oom_sweep ${CMAKE_CURRENT_LIST_DIR}/oom_sweep.c)
  target_include_directories(oom_sweep PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(oom_sweep PRIVATE hilo)
  # in process: every allocation site of the hilo-opt workload fails once
  add_test(NAME oom.sweep
    COMMAND oom_sweep --max-runs=1500
      ${CMAKE_SOURCE_DIR}/examples/dus_chain.hlo
      ${CMAKE_SOURCE_DIR}/examples/duplicate_all_gathers.hlo
      ${CMAKE_SOURCE_DIR}/examples/unrolled_loop.hlo
      ${CMAKE_SOURCE_DIR}/fuzz/corpus_hlo_text/03_while.hlo
      ${CMAKE_SOURCE_DIR}/fuzz/corpus_hlo_text/04_slices.hlo
      ${CMAKE_SOURCE_DIR}/fuzz/corpus_hlo_text/05_collectives.hlo)
  set_tests_properties(oom.sweep PROPERTIES TIMEOUT 600)
  # the same for the views (src/viz: DOT, statistics, extraction, the
  # rewrite report) and for the flat C API (src/api)
  add_test(NAME oom.viz
    COMMAND oom_sweep --max-runs=600 --workload=viz ${CMAKE_SOURCE_DIR}/examples/dus_chain.hlo)
  add_test(NAME oom.api
    COMMAND oom_sweep --max-runs=600 --workload=api ${CMAKE_SOURCE_DIR}/examples/dus_chain.hlo)
  set_tests_properties(oom.viz oom.api PROPERTIES TIMEOUT 600)
endif()
if(HILO_FAULT_INJECTION)
  # through the binaries: exit 1, the message, no output file, no leak
  add_test(NAME oom.tools
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/oom_tools.sh $<TARGET_FILE:hilo-opt> $<TARGET_FILE:pto-opt>
      ${CMAKE_SOURCE_DIR}/examples/dus_chain.hlo
      ${CMAKE_SOURCE_DIR}/tests/pto/golden/step_a_derived_scalar.py 7)
  set_tests_properties(oom.tools PROPERTIES TIMEOUT 600)
endif()
