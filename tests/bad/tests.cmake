# Bad-input corpus: tests/bad/NAME.hlo beside NAME.err, the exact first
# diagnostic line hilo-opt must print (exit 1, nothing on stdout, -o OUT
# untouched, no temp files). See run_bad.sh.
file(GLOB HILO_BAD_INPUTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.hlo)
foreach(f ${HILO_BAD_INPUTS})
  get_filename_component(name ${f} NAME_WE)
  add_test(NAME bad.${name}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_bad.sh $<TARGET_FILE:hilo-opt> ${CMAKE_CURRENT_LIST_DIR} ${name})
endforeach()
