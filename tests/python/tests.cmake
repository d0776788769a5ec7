# The Python package's tests (python/tests, pytest from Debian's
# python3-pytest) against this build's libhilo.so. Not in sanitizer builds:
# an instrumented libhilo cannot be loaded into an uninstrumented python.
if(NOT HILO_SANITIZE)
  add_test(NAME python.pytest
    COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${PROJECT_SOURCE_DIR}/python/tests)
  set_tests_properties(python.pytest PROPERTIES TIMEOUT 900
    ENVIRONMENT "HILO_LIBRARY=$<TARGET_FILE:hilo_testing_shared>;PYTHONPATH=${PROJECT_SOURCE_DIR}/python;HILO_TOOLS=${PROJECT_BINARY_DIR};HILO_CORPUS=${HILO_CORPUS};PYTHONDONTWRITEBYTECODE=1")
endif()
