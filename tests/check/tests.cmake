# Rewrite validation (issue 13, src/check): the whole real corpus through
# --pipeline=neuron --check-equivalence (0 failed, 0 skipped, >= 95%
# proved) and the broken test pass caught on a real dump. Skipped (exit 77),
# never passed, without ../shared/corpus.
add_test(NAME check.corpus_proof
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/corpus_proof.sh $<TARGET_FILE:hilo-opt-test> ${HILO_CORPUS}/real)
set_tests_properties(check.corpus_proof PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)
