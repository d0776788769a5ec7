# Install into a temporary prefix and build out-of-tree consumers
# (pkg-config static/shared, find_package, add_subdirectory) and the pip
# package (pip.sh). Not in sanitizer builds: consumers there would need the
# sanitizer runtime flags.
if(NOT HILO_SANITIZE)
  add_test(NAME install.consumers
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(install.consumers PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  # pip install ./python offline (tests/install/pip.sh)
  add_test(NAME install.pip
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pip.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(install.pip PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# pass plugins built out of tree against the installed hilo and run by the
# installed hilo-opt (tests/install/plugin.sh); the plugins take no
# sanitizer flags (hilo-opt brings the runtime), so sanitizer builds run it
add_test(NAME install.plugin
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/plugin.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(install.plugin PROPERTIES TIMEOUT 600)
