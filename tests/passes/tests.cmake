# Corpus runs of the XLA-equivalent passes (issue 4):
#   passes.xla-unit.PASS  PASS with verify-each and the equivalence check over
#                         every module of corpus/xla-unit/passes (all
#                         subfolders), in one process (tests/unit/
#                         test_pass_corpus.c; run_xla_unit.sh does the same
#                         through hilo-opt, by hand): no crash, verifier
#                         clean, equivalence holds or is reported skipped
#   passes.real           call-inliner,tuple-simplifier,cse,dce --verify-each
#                         --stats over every corpus/real module
# Both are SKIPPED (exit 77), never passed, without ../shared/corpus.
set(PASSES_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
if(HILO_SANITIZE)
  set(PASSES_STRIDE 7)   # a sample under ASan/UBSan keeps make test short
else()
  set(PASSES_STRIDE 1)
endif()
foreach(p dce tuple-simplifier call-inliner cse constant-folding boundary-marker-removal)
  add_test(NAME passes.xla-unit.${p}
    COMMAND test_pass_corpus ${HILO_CORPUS}/xla-unit/passes ${p} ${PASSES_STRIDE})
  set_tests_properties(passes.xla-unit.${p} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1500)
endforeach()
add_test(NAME passes.real
  COMMAND sh ${PASSES_TEST_DIR}/run_real.sh $<TARGET_FILE:hilo-opt> ${HILO_CORPUS}/real)
set_tests_properties(passes.real PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1500)
