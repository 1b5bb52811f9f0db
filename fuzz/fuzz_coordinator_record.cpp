// libFuzzer target: one record of a coordinator log (__consumer_offsets, __transaction_state,
// __share_group_state), key and value, as `segment dump --records` decodes each record there.
// Input: byte 0 the log (mod 3: offsets, transactions, share state), byte 1 bit 0 set for a
// null value (a tombstone) and bit 1 for a null key, bytes 2-3 the key's length (big-endian,
// capped at what remains), the key, then the value.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/coordinator_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const auto log = static_cast<kepoch::CoordinatorLog>(data[0] % 3);
  const bool null_value = data[1] & 1;
  const bool null_key = data[1] & 2;
  const std::size_t key_size = std::min<std::size_t>((data[2] << 8) | data[3], size - 4);
  const std::span<const std::uint8_t> key(data + 4, key_size);
  const std::span<const std::uint8_t> value(data + 4 + key_size, size - 4 - key_size);
  try {
    kepoch::decode_coordinator_record(log, null_key ? std::nullopt : std::optional(key),
                                      null_value ? std::nullopt : std::optional(value), 4,
                                      4 + key_size);
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  return 0;
}
