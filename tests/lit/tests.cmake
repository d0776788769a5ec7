# Golden tests in XLA's convention: tests/lit/<pass-name>/*.hlo, each with
#   // RUN: hilo-opt %s --passes=... | FileCheck %s
# One ctest test per folder (lit.<folder>) so a failure names the pass.
# Skipped (exit 77), never passed, when lit/FileCheck are not installed.
set(LIT_DIR ${CMAKE_CURRENT_LIST_DIR})
file(GLOB LIT_SUBDIRS LIST_DIRECTORIES true CONFIGURE_DEPENDS ${LIT_DIR}/*)
foreach(d ${LIT_SUBDIRS})
  if(IS_DIRECTORY ${d})
    get_filename_component(n ${d} NAME)
    if(NOT n STREQUAL "Inputs")
      add_test(NAME lit.${n}
        COMMAND sh ${LIT_DIR}/run_lit.sh $<TARGET_FILE_DIR:hilo-opt> ${d})
      set_tests_properties(lit.${n} PROPERTIES SKIP_RETURN_CODE 77)
    endif()
  endif()
endforeach()
