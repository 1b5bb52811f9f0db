# Compiler settings shared by every first-party target, kept in INTERFACE targets so
# presets only flip options.

add_library(kepoch_warnings INTERFACE)
target_compile_options(kepoch_warnings INTERFACE
  -Wall -Wextra
  -Wshadow              # a shadowed offset or length is a classic parser bug
  -Wconversion -Wno-sign-conversion  # narrowing of file offsets must be explicit
  -Wnon-virtual-dtor
  -Wimplicit-fallthrough)
if(KEPOCH_WERROR)
  target_compile_options(kepoch_warnings INTERFACE -Werror)
endif()

add_library(kepoch_settings INTERFACE)
if(KEPOCH_SANITIZE)
  target_compile_options(kepoch_settings INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(kepoch_settings INTERFACE -fsanitize=address,undefined)
endif()
if(KEPOCH_FUZZ)
  # Coverage for libFuzzer in every object; the fuzz targets link -fsanitize=fuzzer.
  target_compile_options(kepoch_settings INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(kepoch_settings INTERFACE -fsanitize=address,undefined)
endif()
target_compile_definitions(kepoch_settings INTERFACE $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)
