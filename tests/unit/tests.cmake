# Unit-test extras over the shared corpus: hilo_module_clone must reproduce
# the printed form of every corpus module. Skipped (exit 77) when the
# corpus folder is missing.
foreach(sub real xla-unit/parser/long xla-unit/parser/short)
  string(REPLACE "/" "." tname ${sub})
  add_test(NAME unit.clone_corpus.${tname} COMMAND test_ir ${HILO_CORPUS}/${sub})
  set_tests_properties(unit.clone_corpus.${tname} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

# No pass names an attribute by key string (ids of include/hilo/attrs.def).
add_test(NAME unit.attr_keys COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/attr_keys.sh ${PROJECT_SOURCE_DIR})

# Shared pass helpers are defined once (boundary-marker stripping, control
# relay, call-site counting, the marker predicates; issue 19 item 5).
add_test(NAME unit.pass_helpers COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pass_helpers.sh ${PROJECT_SOURCE_DIR})

# Shapes are interned: nothing outside src/ir/shape.c builds one by hand.
add_test(NAME unit.shape_build COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/shape_build.sh ${PROJECT_SOURCE_DIR})

# The layers point down only (issue 29): no object of a lower folder of
# src/ uses a symbol of a higher one, and no folder cycle (read with nm
# from the library's objects; the list is written at generate time).
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/hilo_objects.txt
  CONTENT "$<JOIN:$<TARGET_OBJECTS:hilo_obj>,\n>\n$<JOIN:$<TARGET_OBJECTS:hilo_registry_obj>,\n>\n")
add_test(NAME unit.layering COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/layering.sh
  ${CMAKE_BINARY_DIR}/hilo_objects.txt ${PROJECT_SOURCE_DIR})

# The public headers compile as C and as C++ (issue 29).
add_test(NAME unit.headers_cxx COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/headers_cxx.sh
  ${PROJECT_SOURCE_DIR} ${HILO_GEN_INCLUDE})
set_tests_properties(unit.headers_cxx PROPERTIES SKIP_RETURN_CODE 77)
