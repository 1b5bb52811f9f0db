#pragma once
// Standard base64 (RFC 4648 section 4, with '=' padding), as SCRAM writes salts, proofs
// and signatures, and salvage archives hold record bytes. Decoding is strict: a length that is not
// a multiple of four, a character outside the alphabet or misplaced padding is refused.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch {

std::string base64_encode(std::span<const std::uint8_t> bytes);
// The same text appended to `out` (no string of its own: salvage writes every key and value).
void base64_append(std::string& out, std::span<const std::uint8_t> bytes);
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text);

}  // namespace kepoch
