// libFuzzer target: one KRaft metadata record value (frame version, api key, version, then
// the flexible-version body), as `metadata dump` decodes each record of __cluster_metadata-0;
// and the same bytes as a record of __remote_log_metadata (the same framing, the tiered-storage
// schemas), as `segment dump` and `logdir scan` decode them.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/remote_log_metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kepoch::decode_metadata_record(std::span<const std::uint8_t>(data, size), 0);
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  try {
    kepoch::decode_remote_log_metadata_record(std::span<const std::uint8_t>(data, size), 0);
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  return 0;
}
