# Thread safety (issue 14 item 4): 8 threads, each parse -> verify ->
# neuron pipeline -> equivalence check -> print -> proto write on a
# different module, compared with the single-threaded run. In the
# build-tsan configuration (make test) it runs under ThreadSanitizer.
find_package(Threads REQUIRED)
add_executable(test_threads ${CMAKE_CURRENT_LIST_DIR}/test_threads.c)
target_link_libraries(test_threads PRIVATE hilo Threads::Threads)
set(hilo_thread_inputs
  ${CMAKE_SOURCE_DIR}/examples/duplicate_all_gathers.hlo
  ${CMAKE_SOURCE_DIR}/examples/dus_chain.hlo
  ${CMAKE_SOURCE_DIR}/examples/unrolled_loop.hlo
  ${CMAKE_SOURCE_DIR}/examples/neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm.hlo
  ${CMAKE_SOURCE_DIR}/tests/e2e/gemma_kv_small.hlo
  ${CMAKE_SOURCE_DIR}/tests/e2e/llama_scan_small.hlo
  ${CMAKE_SOURCE_DIR}/tests/lit/dynamic-slice-mover/unrolled_chain.hlo
  ${CMAKE_SOURCE_DIR}/tests/lit/neuron-dus-ds-index-simplifier/unrolled_scan.hlo)
# Three separate processes: ThreadSanitizer caught a race planted in
# hilo_arena_alloc in about 60% of single runs (scheduling on a loaded
# machine decides which accesses it sees unordered), so one run is not
# enough to trust a pass.
add_test(NAME threads.pipeline
  COMMAND sh -c "for run in 1 2 3; do \"$0\" \"$@\" || exit 1; done" $<TARGET_FILE:test_threads> ${hilo_thread_inputs})
set_tests_properties(threads.pipeline PROPERTIES TIMEOUT 600)
# No mutable statics at all (the precondition of the test above): the
# release library's writable sections hold only the C runtime's objects.
if(NOT HILO_SANITIZE AND NOT HILO_TSAN AND NOT HILO_FAULT_INJECTION)
  add_test(NAME threads.no_mutable_statics
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/no_statics.sh $<TARGET_FILE:hilo_shared>)
  set_tests_properties(threads.no_mutable_statics PROPERTIES SKIP_RETURN_CODE 77)
endif()
# hilo-opt --batch -j 4 over the same modules (issue 32 §5), against -j 1.
add_test(NAME threads.batch
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/batch.sh $<TARGET_FILE:hilo-opt> ${hilo_thread_inputs})
set_tests_properties(threads.batch PROPERTIES TIMEOUT 600)
