# Concatenation passes (seed 000: simplify-concat #27,
# slice-of-concat-optimizer #107, neuron_repeated_dus_to_concat #108).
# Golden tests live in tests/lit/<pass>/ (lit.<pass>); these are the
# seeded random-module generator and the real-corpus run.
find_program(HILO_PYTHON3 python3)
if(HILO_PYTHON3)
  add_test(NAME concat.generator
    COMMAND ${HILO_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/gen_concat_modules.py
      $<TARGET_FILE:hilo-opt> --seed=1 --count=300)
  set_tests_properties(concat.generator PROPERTIES TIMEOUT 600)
endif()
# Pinned rewrite counts per module (simplify-concat:slice-of-concat:dus);
# every other module must make none. torax's 44 slice-of-concat sites all
# straddle an operand boundary (windows [1:26] / [0:25] over 1+24+1), so the
# exact-window rule declines them; gemma's one rewrite merges 17 adjacent
# zero operands of one concatenate into 16.
add_test(NAME concat.corpus_real
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/corpus_real.sh $<TARGET_FILE:hilo-opt> ${HILO_CORPUS}/real
    gemma4_2b_bf16.hlo:1:0:0)
set_tests_properties(concat.corpus_real PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
