# Corpus round trips (SPEC section 2). Skipped (exit 77) when ../shared is absent.
set(rt ${CMAKE_CURRENT_LIST_DIR}/roundtrip.sh)
foreach(group real xla-unit/parser/long xla-unit/parser/short)
  string(REPLACE "/" "." tname ${group})
  file(GLOB files ${HILO_CORPUS}/${group}/*.hlo)
  if(NOT files)
    set(files ${HILO_CORPUS}/${group}/missing.hlo)
  endif()
  add_test(NAME roundtrip.exact.${tname} COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> exact ${files})
  add_test(NAME roundtrip.styles.${tname} COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> styles ${files})
  set_tests_properties(roundtrip.exact.${tname} roundtrip.styles.${tname} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
foreach(group passes lit)
  file(GLOB_RECURSE files ${HILO_CORPUS}/xla-unit/${group}/*.hlo)
  if(NOT files)
    set(files ${HILO_CORPUS}/xla-unit/${group}/missing.hlo)
  endif()
  add_test(NAME roundtrip.parse.${group} COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> parse ${files})
  set_tests_properties(roundtrip.parse.${group} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
file(GLOB pairs ${HILO_CORPUS}/xla-unit/parser/nonroundtrip/*.input.hlo)
if(NOT pairs)
  set(pairs ${HILO_CORPUS}/xla-unit/parser/nonroundtrip/missing.input.hlo)
endif()
add_test(NAME roundtrip.pairs.nonroundtrip COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> pairs ${pairs})
set_tests_properties(roundtrip.pairs.nonroundtrip PROPERTIES SKIP_RETURN_CODE 77)
# Lossless printing: parse -> print(auto) -> parse keeps every metadata,
# sharding, frontend attribute, backend_config and other field of every
# corpus module (split files included), compared field by field.
add_executable(lossless ${CMAKE_CURRENT_LIST_DIR}/lossless.c)
target_link_libraries(lossless PRIVATE hilo)
add_test(NAME roundtrip.lossless COMMAND lossless ${HILO_CORPUS})
set_tests_properties(roundtrip.lossless PROPERTIES SKIP_RETURN_CODE 77)
# Print idempotence of every corpus module in every style (issue 18):
# print(parse(print(parse(x), S)), S) == print(parse(x), S) for S in auto,
# default, long, short; rejected modules only in files listed unsupported.
add_executable(idempotent ${CMAKE_CURRENT_LIST_DIR}/idempotent.c)
target_link_libraries(idempotent PRIVATE hilo)
add_test(NAME roundtrip.idempotent COMMAND idempotent ${HILO_CORPUS} ${CMAKE_CURRENT_LIST_DIR}/unsupported.txt)
set_tests_properties(roundtrip.idempotent PROPERTIES SKIP_RETURN_CODE 77)
# Printer styles XLA's older and current dumps use (issue 34 section 2):
# operand lists of six and more without /*index=N*/ markers (detected per
# list), a comment after a computation's closing brace; byte for byte,
# directly and through the binary proto.
file(GLOB style_files ${CMAKE_CURRENT_LIST_DIR}/styles/*.hlo)
add_test(NAME roundtrip.exact.styles COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> exact ${style_files})
add_test(NAME roundtrip.exactpb.styles COMMAND sh ${rt} $<TARGET_FILE:hilo-opt> exactpb ${style_files})
