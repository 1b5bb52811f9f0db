# Compiler settings shared by every first-party target, kept in INTERFACE targets so
# presets only flip options.

add_library(kepoch_warnings INTERFACE)
target_compile_options(kepoch_warnings INTERFACE
  -Wall -Wextra
  -Wshadow              # a shadowed offset or length is a classic parser bug
  -Wconversion -Wno-sign-conversion  # narrowing of file offsets must be explicit
  -Wnon-virtual-dtor
  -Wimplicit-fallthrough
  # GCC 12.2 (Debian 12's) warns falsely in optimized builds when a short literal is assigned
  # to or prepended to a std::string (GCC bug 105329, fixed in 12.3): off for GCC before 13.
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
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

# Build speed (CI runs three builds of every file: dev, asan, fuzz).
# ccache, when installed, as the compiler launcher. Each CI run builds in a fresh clone in
# another folder: base_dir makes the paths on the command line relative to the checkout and
# hash_dir off keeps the build folder out of the hash, so a clone reuses what an earlier
# clone compiled. The cache lives in ccache's own place (~/.cache/ccache).
option(KEPOCH_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(KEPOCH_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(KEPOCH_CCACHE_PROGRAM ccache)
  if(KEPOCH_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=true ${KEPOCH_CCACHE_PROGRAM})
  endif()
endif()

# mold, when installed, links: the debug and sanitizer binaries are large, and the GNU linker
# spends seconds on each.
option(KEPOCH_MOLD "Link with mold when it is installed" ON)
if(KEPOCH_MOLD)
  find_program(KEPOCH_MOLD_PROGRAM mold)
  if(KEPOCH_MOLD_PROGRAM)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=mold KEPOCH_HAS_MOLD)
    if(KEPOCH_HAS_MOLD)
      add_link_options(-fuse-ld=mold)
    endif()
  endif()
endif()
