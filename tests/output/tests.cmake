# Output safety (issue 14 item 1): the one output routine behind -o and
# --remarks, on files, symlinks, FIFOs, sockets, devices, read-only folders
# and write failures, all inside a temporary folder.
if(HILO_FAULT_INJECTION)
  set(hilo_output_fault 1)
else()
  set(hilo_output_fault 0)
endif()
add_test(NAME output.safety
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/output.sh $<TARGET_FILE:hilo-opt> $<TARGET_FILE:pto-opt>
    ${CMAKE_SOURCE_DIR}/tests/pto/golden/step_a_derived_scalar.py
    ${CMAKE_SOURCE_DIR}/tests/lit/while-loop-unroller/basic_lt.hlo ${hilo_output_fault}
    $<TARGET_FILE:hilo-run>)
set_tests_properties(output.safety PROPERTIES TIMEOUT 120)
