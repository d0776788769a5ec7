# hilo-opt's views: DOT (golden), --around, the cost model, extraction.
add_test(NAME viz.views
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/run_viz.py ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${HILO_CORPUS})
