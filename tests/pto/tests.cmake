# PTO tests (issue 8): pto-opt on PyPTO program text.
#   pto.fixtures          ../shared/pto/check_fixtures.py over every fixture with an
#                         expectation (SKIPPED, never passed, without the shared folder)
#   pto.roundtrip.shared  every shared fixture prints back byte for byte (--passes=)
#   pto.roundtrip.local   the same for this folder's inputs and examples/pto
#   pto.golden.NAME       tests/pto/golden/NAME.py against NAME.out (exact output)
#                         or NAME.err (exit 1, located GBnnn diagnostic, no output)
#   pto.bad.NAME          tests/pto/bad/NAME.* malformed input: located error, exit 1
#   pto.reformat.NAME     tests/pto/reformat/NAME.py: valid input printed in another form
#                         (`;`, same-line bodies) against NAME.out; print-only: same AST
#   pto.cli               usage errors (exit 2), atomic -o, stdin input
set(PTO_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME pto.fixtures
  COMMAND sh ${PTO_TEST_DIR}/run_fixtures.sh $<TARGET_FILE:pto-opt> ${HILO_SHARED_DIR})
set_tests_properties(pto.fixtures PROPERTIES SKIP_RETURN_CODE 77)

add_test(NAME pto.roundtrip.shared
  COMMAND sh ${PTO_TEST_DIR}/run_roundtrip.sh $<TARGET_FILE:pto-opt> ${HILO_SHARED_DIR}/pto/fixtures)
set_tests_properties(pto.roundtrip.shared PROPERTIES SKIP_RETURN_CODE 77)

add_test(NAME pto.roundtrip.local
  COMMAND sh ${PTO_TEST_DIR}/run_roundtrip.sh $<TARGET_FILE:pto-opt>
    ${PTO_TEST_DIR}/golden ${PTO_TEST_DIR}/../../examples/pto ${PTO_TEST_DIR}/../../fuzz/corpus_pto)

file(GLOB PTO_GOLDEN CONFIGURE_DEPENDS ${PTO_TEST_DIR}/golden/*.py)
foreach(f ${PTO_GOLDEN})
  get_filename_component(n ${f} NAME_WE)
  add_test(NAME pto.golden.${n} COMMAND sh ${PTO_TEST_DIR}/run_golden.sh $<TARGET_FILE:pto-opt> ${f})
endforeach()

file(GLOB PTO_BAD CONFIGURE_DEPENDS ${PTO_TEST_DIR}/bad/*.py)
foreach(f ${PTO_BAD})
  get_filename_component(n ${f} NAME_WE)
  add_test(NAME pto.bad.${n} COMMAND sh ${PTO_TEST_DIR}/run_golden.sh $<TARGET_FILE:pto-opt> ${f})
endforeach()

file(GLOB PTO_REFORMAT CONFIGURE_DEPENDS ${PTO_TEST_DIR}/reformat/*.py)
foreach(f ${PTO_REFORMAT})
  get_filename_component(n ${f} NAME_WE)
  add_test(NAME pto.reformat.${n} COMMAND sh ${PTO_TEST_DIR}/run_reformat.sh $<TARGET_FILE:pto-opt> ${f})
endforeach()

add_test(NAME pto.cli COMMAND sh ${PTO_TEST_DIR}/run_cli.sh $<TARGET_FILE:pto-opt> ${PTO_TEST_DIR})

# C unit tests of the PTO internals (printer precedence, trip counts, ReplayInvariantSet)
add_executable(pto_unit ${PTO_TEST_DIR}/unit_pto.c)
target_include_directories(pto_unit PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(pto_unit PRIVATE hilo)
add_test(NAME pto.unit COMMAND pto_unit)

# C unit tests of how the parser reads its input: the line window, the
# order of errors, the file entry point (caret lines read back from the file)
add_executable(pto_unit_text ${PTO_TEST_DIR}/unit_pto_text.c)
target_include_directories(pto_unit_text PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(pto_unit_text PRIVATE hilo)
add_test(NAME pto.unit.text COMMAND pto_unit_text)
