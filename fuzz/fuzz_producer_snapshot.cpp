// libFuzzer target: producer state snapshots (<offset>.snapshot), ProducerStateManager's format.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/producer_snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kepoch::parse_producer_snapshot(std::span<const std::uint8_t>(data, size));
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  return 0;
}
