# Evaluator tests (issue 3): the corpus of XLA pass-test modules evaluated
# in one process (count reported, skipped when the corpus is missing), and
# hilo-run / --check-equivalence command-line behaviour.
add_executable(eval_corpus ${CMAKE_CURRENT_LIST_DIR}/eval_corpus.c)
target_link_libraries(eval_corpus PRIVATE hilo)

# At least 430 of corpus/xla-unit/passes evaluate within 10^7 element-ops.
add_test(NAME eval.corpus_passes
  COMMAND eval_corpus ${HILO_CORPUS}/xla-unit/passes 430 10000000)
set_tests_properties(eval.corpus_passes PROPERTIES SKIP_RETURN_CODE 77)

add_test(NAME eval.cli
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cli.sh $<TARGET_FILE_DIR:hilo-run> ${CMAKE_CURRENT_LIST_DIR})
# hilo-run with NumPy .npy inputs and outputs, compared with numpy
add_test(NAME eval.npy COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/npy_test.py ${PROJECT_BINARY_DIR})
