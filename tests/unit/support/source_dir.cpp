#include "support/source_dir.hpp"

// Constant-initialised, so test files may build their static paths from it.
extern const char* const kepoch_test_source_dir = KEPOCH_SOURCE_DIR_VALUE;
