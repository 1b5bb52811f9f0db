// The source tree the unit tests read their fixtures from. Defined once, in source_dir.cpp, so the
// absolute path of this checkout reaches one object only: every other test object is the same
// in any clone and ccache can reuse it (base_dir, see cmake/Settings.cmake).
#pragma once

extern const char* const kepoch_test_source_dir;
#define KEPOCH_SOURCE_DIR kepoch_test_source_dir
