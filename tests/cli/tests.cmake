# Command-line conventions shared by every tool.
add_test(NAME cli.version COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/version.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.man COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/man.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.flags COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/flags.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.passes COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/passes.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
# The README's examples, compiled and run (not in sanitizer builds: the
# example would need the sanitizer runtime flags).
if(NOT HILO_SANITIZE)
  add_test(NAME cli.readme COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/readme.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
endif()
add_test(NAME cli.help COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/help.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.docs COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/docs.sh ${PROJECT_SOURCE_DIR})
add_test(NAME cli.messages COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/messages.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
# hilo-run --compare (two modules on the same inputs, within tolerances) and
# hilo-opt --dump-after-each / --dump-pass-re (issue 32 §5).
add_test(NAME cli.run_compare COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/compare.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.opt_dump COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/dump.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
# hilo-opt --batch: many modules on N threads, one summary (issue 32 §5).
add_test(NAME cli.opt_batch COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/batch.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
