# tests/lib: the deliberately unsound test passes (test_passes.def) and the
# variants they give the real passes (src/transforms/variants.h). They are
# never part of libhilo: the testing library is libhilo's objects with the
# registry compiled again to list them (HILO_WITH_TEST_PASSES), linked into
# the test binaries only (hilo-opt-test; the Python tests' shared library).
file(GLOB HILO_TEST_LIB_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
add_library(hilo_testing_obj OBJECT ${HILO_TEST_LIB_SOURCES} ${HILO_REGISTRY_SOURCE})
target_include_directories(hilo_testing_obj PRIVATE ${PROJECT_SOURCE_DIR}/include ${HILO_GEN_INCLUDE}
  ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/src/transforms ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(hilo_testing_obj PRIVATE HILO_BUILDING_LIBRARY HILO_WITH_TEST_PASSES)
set_target_properties(hilo_testing_obj PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

add_library(hilo_testing STATIC $<TARGET_OBJECTS:hilo_obj> $<TARGET_OBJECTS:hilo_testing_obj>)
target_include_directories(hilo_testing PUBLIC ${PROJECT_SOURCE_DIR}/include ${HILO_GEN_INCLUDE})
target_link_libraries(hilo_testing PUBLIC m ${CMAKE_DL_LIBS} ${PROTOBUF_C_LIB})
add_library(hilo_testing_shared SHARED $<TARGET_OBJECTS:hilo_obj> $<TARGET_OBJECTS:hilo_testing_obj>)
target_link_libraries(hilo_testing_shared PRIVATE m ${CMAKE_DL_LIBS} ${PROTOBUF_C_LIB})
add_dependencies(hilo_testing_shared hilo_exports)
set_target_properties(hilo_testing_shared PROPERTIES OUTPUT_NAME hilo_testing LINK_DEPENDS ${HILO_EXPORTS_MAP})
target_link_options(hilo_testing_shared PRIVATE -Wl,--version-script=${HILO_EXPORTS_MAP})

# hilo-opt with the test-only passes: the same tools/hilo-opt.c (it names
# itself hilo-opt in messages), linked with the testing library
add_executable(hilo-opt-test ${PROJECT_SOURCE_DIR}/tools/hilo-opt.c)
target_include_directories(hilo-opt-test PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(hilo-opt-test PRIVATE hilo_batch hilo_cli hilo_testing)
# beside hilo-opt, where the tests look for the tools
set_target_properties(hilo-opt-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

# libhilo (static and shared) holds none of them; the testing library does
add_test(NAME unit.test_passes_apart COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/apart.sh
  ${CMAKE_CURRENT_LIST_DIR} $<TARGET_FILE:hilo_testing> $<TARGET_FILE:hilo> $<TARGET_FILE:hilo_shared>
  $<TARGET_FILE:hilo-opt>)
