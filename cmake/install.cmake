# Installation: `cmake --install BUILD --prefix P` (or `make install PREFIX=P`)
# puts the tools in P/bin, libhilo.a and libhilo.so.<major> in P/lib, the
# public headers in P/include/hilo, hilo.pc for pkg-config, the CMake
# package (find_package(hilo CONFIG): hilo::hilo is the shared library,
# hilo::hilo_static the static one) and the man pages.
set_target_properties(hilo_shared PROPERTIES EXPORT_NAME hilo)
set_target_properties(hilo PROPERTIES EXPORT_NAME hilo_static)

install(TARGETS hilo hilo_shared EXPORT hiloTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${HILO_PUBLIC_HEADERS} ${HILO_GEN_INCLUDE}/hilo/passes.def
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hilo)
foreach(tool ${HILO_TOOL_NAMES})
  install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
file(GLOB HILO_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.1)
if(HILO_MAN_PAGES)
  install(FILES ${HILO_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# hilo.pc is relocatable: its prefix is found from where the file lies, so
# `cmake --install --prefix P` works whatever prefix was configured.
file(RELATIVE_PATH HILO_PC_UP /r/${CMAKE_INSTALL_LIBDIR}/pkgconfig /r)
set(HILO_PC_PREFIX "\${pcfiledir}/${HILO_PC_UP}")
# hilo.pc links the shared library with an rpath to its folder (a program
# built with it runs without LD_LIBRARY_PATH or ldconfig); hilo-static.pc
# links libhilo.a and its dependencies (`pkg-config --static --libs hilo`
# would name -lhilo, which the linker resolves to the shared library).
# dlopen's library (pass plugins) where the C library keeps it apart
set(HILO_PC_DL "")
foreach(l ${CMAKE_DL_LIBS})
  string(APPEND HILO_PC_DL " -l${l}")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/hilo.pc.in ${PROJECT_BINARY_DIR}/hilo.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/hilo-static.pc.in ${PROJECT_BINARY_DIR}/hilo-static.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hilo.pc ${PROJECT_BINARY_DIR}/hilo-static.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(CMakePackageConfigHelpers)
install(EXPORT hiloTargets NAMESPACE hilo:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hilo)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hiloConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hiloConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hilo)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hiloConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hiloConfig.cmake ${PROJECT_BINARY_DIR}/hiloConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hilo)
