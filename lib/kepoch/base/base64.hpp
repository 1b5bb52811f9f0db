#pragma once
// Standard base64 (RFC 4648 section 4, with '=' padding), as SCRAM writes salts, proofs
// and signatures, and salvage archives hold record bytes. Decoding is strict: a length that is not
// a multiple of four, a character outside the alphabet or misplaced padding is refused.

#include <cstddef>
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
// The same text written at `out`, which has room for base64_size(bytes.size()) characters;
// returns the end of what was written. AVX2 where the CPU has it (24 bytes a step), else
// two characters per table lookup; the choice is made once at run time.
char* base64_write(char* out, std::span<const std::uint8_t> bytes);
constexpr std::size_t base64_size(std::size_t bytes) {
  return (bytes + 2) / 3 * 4;
}
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text);

// For tests and benchmarks: the table encoder alone, and whether AVX2 is used.
char* base64_write_portable(char* out, std::span<const std::uint8_t> bytes);
bool base64_uses_avx2();

}  // namespace kepoch
