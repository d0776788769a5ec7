# Unit-test extras over the shared corpus: hilo_module_clone must reproduce
# the printed form of every corpus module. Skipped (exit 77) when the
# corpus folder is missing.
foreach(sub real xla-unit/parser/long xla-unit/parser/short)
  string(REPLACE "/" "." tname ${sub})
  add_test(NAME unit.clone_corpus.${tname} COMMAND test_ir ${HILO_CORPUS}/${sub})
  set_tests_properties(unit.clone_corpus.${tname} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
