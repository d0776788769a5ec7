# End-to-end index-pass flow: lit tests over scaled-down scanned-layer
# modules (always), and the real corpus modules with while loops (skipped
# when ../shared/corpus is missing).
add_test(NAME e2e.index_flow
  COMMAND sh ${CMAKE_SOURCE_DIR}/tests/lit/run_lit.sh $<TARGET_FILE_DIR:hilo-opt> ${CMAKE_CURRENT_LIST_DIR})
set_tests_properties(e2e.index_flow PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME e2e.corpus_loops
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/corpus_figures.sh $<TARGET_FILE:hilo-opt> ${HILO_CORPUS}/real
    "--expect=loops unrolled 2, declined 0; dsidxnow written 7120, dusidxnow written 5840; DS moved 7120,"
    hlo_llama31_70b_fp8_32x8.hlo)
set_tests_properties(e2e.corpus_loops PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
