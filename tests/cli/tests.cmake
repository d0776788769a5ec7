# Command-line conventions shared by every tool.
add_test(NAME cli.version COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/version.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.man COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/man.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.flags COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/flags.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME cli.passes COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/passes.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
