# Mutation testing of the passes (issue 30 section 9, tests/mutate/mutate.py):
# the bounded smoke run. Eight mutants spread over dce's code, each built
# into its own hilo-opt-test beside the build (the build is read, never
# written) and run on tests/lit/dce: every one that changes an output must
# be caught by --check-equivalence or refused (the verifier, a crash), or be
# listed as sound in tests/mutate/sound.txt; at least one must be detected.
# About 15 s. Release only (the archive and flags it links against are the
# release build's; `make mutate` runs every pass, with the corpus).
if(NOT HILO_SANITIZE AND NOT HILO_TSAN)
  add_test(NAME mutate.smoke
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/mutate.py --build ${CMAKE_BINARY_DIR} --passes dce --max 8 --smoke)
  set_tests_properties(mutate.smoke PROPERTIES TIMEOUT 600)
endif()
