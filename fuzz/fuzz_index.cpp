// libFuzzer target: the index files (.index, .timeindex, .txnindex), as `segment dump`
// and `partition verify` parse them.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/offset_index.hpp"
#include "kepoch/format/time_index.hpp"
#include "kepoch/format/transaction_index.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kepoch;
  const std::span<const std::uint8_t> bytes(data, size);
  try {
    parse_offset_index(bytes, 8);
  } catch (const InputError&) {
  } catch (const FormatError&) {
  }
  try {
    parse_time_index(bytes, 8);
  } catch (const InputError&) {
  } catch (const FormatError&) {
  }
  try {
    parse_transaction_index(bytes, 8);
  } catch (const InputError&) {
  } catch (const FormatError&) {
  }
  return 0;
}
