// libFuzzer target: a .log segment walked as `segment dump --records` walks it (entry
// headers, CRCs, v2 records, control records, legacy messages and wrappers, every codec's
// decompression). The walker reads files, so each input is written to a scratch file first.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/storage/segment_dump.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kepoch;
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() /
             ("kepoch-fuzz-segment-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  const auto file = dir / "00000000000000000000.log";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    SegmentDumpOptions options;
    options.records = true;
    dump_segment(file, options, [](const DumpedBatch&) {});
  } catch (const InputError&) {
  } catch (const FormatError&) {
  }
  return 0;
}
