# hilo-opt's views: DOT (golden), --around, the cost model, extraction.
add_test(NAME viz.views
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run_viz.py ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${HILO_CORPUS})
# the rewrite report, in headless Chromium when it is installed (skipped,
# never passed, without it)
add_test(NAME viz.report
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run_report.py ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(viz.report PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
