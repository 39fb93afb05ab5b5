# Writes the git revision of SOURCE_DIR as a C string literal to OUTPUT, only when it changed (so
# that an unchanged revision rebuilds nothing). CLUMPLAB_REVISION in the environment overrides it
# (a source tarball has no .git); "unknown" when neither gives one.
set(revision "$ENV{CLUMPLAB_REVISION}")
if(revision STREQUAL "")
  execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR revision STREQUAL "")
    set(revision "unknown")
  endif()
endif()
file(WRITE "${OUTPUT}.new" "\"${revision}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
file(REMOVE "${OUTPUT}.new")
