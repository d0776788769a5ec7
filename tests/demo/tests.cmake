# `make demo` as a test: examples/demo.sh must exit 0, print its summary and
# report no failed example; and every example module must round-trip byte
# for byte through hilo-opt with no passes.
add_test(NAME demo.examples
  COMMAND sh -c "out=$(sh '${CMAKE_SOURCE_DIR}/examples/demo.sh' \"$0\" 2>&1); rc=$?; printf '%s\\n' \"$out\" | tail -n 12; [ $rc -eq 0 ] && printf '%s\\n' \"$out\" | grep -q '^== summary' && ! printf '%s\\n' \"$out\" | grep -q 'FAILED'"
    $<TARGET_FILE_DIR:hilo-opt>)
file(GLOB HILO_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/examples/*.hlo)
foreach(f ${HILO_EXAMPLES})
  get_filename_component(name ${f} NAME_WE)
  add_test(NAME demo.roundtrip.${name}
    COMMAND sh -c "\"$0\" \"$1\" | cmp - \"$1\"" $<TARGET_FILE:hilo-opt> ${f})
endforeach()
