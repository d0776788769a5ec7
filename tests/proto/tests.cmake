# Binary HloModuleProto (issue 7): corpus round trips through the proto
# (skipped, exit 77, when ../shared is absent) and the reader's handling
# of corrupt input (tests/unit/test_proto.c).
set(prt ${CMAKE_CURRENT_LIST_DIR}/roundtrip.sh)
foreach(group real xla-unit/parser/long xla-unit/parser/short)
  string(REPLACE "/" "." tname ${group})
  add_test(NAME proto.roundtrip.${tname}
    COMMAND sh ${prt} $<TARGET_FILE:hilo-opt> ${HILO_CORPUS} ${group})
  set_tests_properties(proto.roundtrip.${tname} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
add_test(NAME proto.cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cli.sh $<TARGET_FILE:hilo-opt>)
# A scalar's empty layout from an XLA-written proto prints as XLA prints it.
add_test(NAME proto.scalar_layout COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/scalar_layout.sh
  $<TARGET_FILE:hilo-opt> ${CMAKE_CURRENT_LIST_DIR}/jax_scalars.pb)
# Text -> proto -> text in the forms XLA writes and reads (iota shardings,
# braced frontend attribute values).
add_test(NAME proto.xla_forms COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/xla_forms.py $<TARGET_FILE:hilo-opt>)
add_test(NAME proto.async_wrapper COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/async_wrapper.py $<TARGET_FILE:hilo-opt>)
# Binary protos kept byte for byte (issue 34): XLA's dumps in
# tests/proto/fixtures written back byte-identical; hand-built HloProtos with
# a schedule, aliasing, donors, stack frames and unknown fields at every
# level through unmodified and modified round trips (and read by XLA when the
# jax venv is there: HILO_XLA_PYTHON).
add_test(NAME proto.lossless
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/lossless.py $<TARGET_FILE:hilo-opt> $<TARGET_FILE:hilo-run>
    ${CMAKE_CURRENT_LIST_DIR}/fixtures ${PROJECT_BINARY_DIR}/proto_lossless)
