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
# `make demo` itself (the Makefile's recipe): no make-internal output. It
# builds in this build folder, so it runs alone; only in a Release build (the
# recipe configures the folder as make demo does: Release).
if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT HILO_SANITIZE)
  add_test(NAME demo.make_quiet
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/make_demo.sh ${CMAKE_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${HILO_SHARED_DIR})
  set_tests_properties(demo.make_quiet PROPERTIES RUN_SERIAL TRUE TIMEOUT 600)
endif()
