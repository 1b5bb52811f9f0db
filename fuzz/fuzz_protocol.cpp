// libFuzzer target: a broker's response body as kepoch's protocol client decodes it. The
// first byte is the API key, the second the version (inputs naming an API or version kepoch
// has no schema for are skipped); the rest is the body given to decode_body.
#include <cstddef>
#include <cstdint>
#include <span>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kepoch::cluster::protocol;
  if (size < 2) return 0;
  const auto api = static_cast<ApiKey>(data[0]);
  const MessageSchema* schema = find_schema(api, MessageKind::kResponse);
  const auto version = static_cast<std::int16_t>(data[1]);
  if (schema == nullptr || !schema->valid_versions.contains(version)) return 0;
  try {
    decode_body(api, MessageKind::kResponse, version,
                std::span<const std::uint8_t>(data + 2, size - 2));
  } catch (const kepoch::ProtocolError&) {
  }
  return 0;
}
