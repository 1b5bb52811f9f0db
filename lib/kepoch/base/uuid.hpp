#pragma once
// Kafka's Uuid (org.apache.kafka.common.Uuid): 16 bytes, written as URL-safe base64
// without padding (22 characters). Parsing mirrors Uuid.fromString, which uses
// java.util.Base64.getUrlDecoder(): padding is optional but must be well formed, and the
// result must be exactly 16 bytes.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kepoch {

struct Uuid {
  std::array<std::uint8_t, 16> bytes{};

  bool is_zero() const;
  // Kafka's reserved ids: the most significant 64 bits are 0 and the least < 100.
  bool is_reserved() const;
  std::string to_string() const;
  friend bool operator==(const Uuid&, const Uuid&) = default;
};

struct UuidParse {
  bool ok = false;
  Uuid uuid;
  std::string error;  // Java's IllegalArgumentException text when !ok
};

UuidParse parse_uuid(std::string_view text);

}  // namespace kepoch
