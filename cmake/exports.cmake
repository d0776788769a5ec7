# Writes the shared library's linker version script: every function the
# public headers (include/hilo/*.h) declare is global, everything else
# (evaluator, lexer and pass internals, protobuf-c) is local. Run as
#   cmake -DHEADERS_DIR=... -DOUT=... -DVERSION=<major> -P exports.cmake
# A declaration is a top-level line "type name(" whose name starts with
# hilo_; tests/install checks the exported set against the headers.
file(GLOB headers ${HEADERS_DIR}/*.h)
set(names "")
foreach(h ${headers})
  file(STRINGS ${h} lines REGEX "^[A-Za-z_][A-Za-z0-9_ \\*]*[ \\*]hilo_[a-z0-9_]+\\(")
  foreach(l ${lines})
    if(l MATCHES "^typedef")
      continue()
    endif()
    string(REGEX MATCH "hilo_[a-z0-9_]+\\(" n "${l}")
    string(REPLACE "(" "" n "${n}")
    list(APPEND names ${n})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
set(body "HILO_${VERSION} {\n  global:\n")
foreach(n ${names})
  string(APPEND body "    ${n};\n")
endforeach()
string(APPEND body "  local:\n    *;\n};\n")
# rewrite only on change, so the library is not relinked for nothing
if(EXISTS ${OUT})
  file(READ ${OUT} old)
  if(old STREQUAL body)
    return()
  endif()
endif()
file(WRITE ${OUT} "${body}")
