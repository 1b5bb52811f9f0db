# The static build's release artifact and its test (preset static; `./dev test` builds and
# runs both, so CI makes the artifact it tests):
#   build/static/kepoch                                  the executable, stripped: the one file
#                                                        to copy onto a broker host or into a pod
#   build/static/kepoch-<version>-linux-x86_64-static.tar.gz   that file with the man pages,
#                                                        completions, README and docs/
set(kepoch_static_name "kepoch-${PROJECT_VERSION}-linux-x86_64-static")
set(kepoch_static_stage "${CMAKE_BINARY_DIR}/${kepoch_static_name}")
set(kepoch_static_tarball "${CMAKE_BINARY_DIR}/${kepoch_static_name}.tar.gz")
file(GLOB kepoch_man_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.1)
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/kepoch ${kepoch_static_tarball}
  COMMAND ${CMAKE_STRIP} -o ${CMAKE_BINARY_DIR}/kepoch $<TARGET_FILE:kepoch>
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${kepoch_static_stage}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${kepoch_static_stage}/man
                          ${kepoch_static_stage}/completions
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/kepoch ${PROJECT_SOURCE_DIR}/README.md
                          ${kepoch_static_stage}/
  COMMAND ${CMAKE_COMMAND} -E copy_directory ${PROJECT_SOURCE_DIR}/docs ${kepoch_static_stage}/docs
  COMMAND ${CMAKE_COMMAND} -E copy ${kepoch_man_pages} ${kepoch_static_stage}/man/
  COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/completions/kepoch.bash
                          ${PROJECT_SOURCE_DIR}/completions/_kepoch
                          ${PROJECT_SOURCE_DIR}/completions/kepoch.fish
                          ${kepoch_static_stage}/completions/
  COMMAND ${CMAKE_COMMAND} -E chdir ${CMAKE_BINARY_DIR}
          ${CMAKE_COMMAND} -E tar czf ${kepoch_static_tarball} ${kepoch_static_name}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${kepoch_static_stage}
  DEPENDS kepoch ${kepoch_man_pages}
  COMMENT "Release artifact: ${CMAKE_BINARY_DIR}/kepoch (stripped) and ${kepoch_static_name}.tar.gz"
  VERBATIM)
add_custom_target(kepoch_static_artifact ALL DEPENDS ${CMAKE_BINARY_DIR}/kepoch ${kepoch_static_tarball})

# The proof (tests/static/empty-root.sh): the artifact alone in an empty root runs every offline
# command over the fixtures and prints, byte for byte, what the dynamic build prints. The dynamic
# build is the dev preset's unless KEPOCH_DYNAMIC_KEPOCH names another.
set(KEPOCH_DYNAMIC_KEPOCH "${PROJECT_SOURCE_DIR}/build/dev/apps/kepoch/kepoch"
    CACHE FILEPATH "The dynamically linked kepoch the static one is compared with")
enable_testing()
add_test(NAME "static: empty-root" COMMAND bash ${PROJECT_SOURCE_DIR}/tests/static/empty-root.sh)
set_tests_properties("static: empty-root" PROPERTIES LABELS static TIMEOUT 600
  ENVIRONMENT "KEPOCH_STATIC_BIN=${CMAKE_BINARY_DIR}/kepoch;KEPOCH=${KEPOCH_DYNAMIC_KEPOCH};KEPOCH_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
