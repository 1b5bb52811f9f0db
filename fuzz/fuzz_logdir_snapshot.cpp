// libFuzzer target: kepoch's own log dir snapshot files (JSON Lines), as `diff` and
// `predict` read them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kepoch::parse_logdir_snapshot(std::string_view(reinterpret_cast<const char*>(data), size),
                                  "fuzz.snap");
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  return 0;
}
