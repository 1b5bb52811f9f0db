#pragma once
// Reading broker files without harming them: open O_RDONLY (never create, lock or write),
// refuse anything that is not a regular file before reading (a FIFO would block), and cap
// the size before allocating, so a huge or hostile file is a one-line error.

#include <cstdint>
#include <filesystem>
#include <string>

namespace kepoch {

// Returns the whole content of a regular file of at most max_bytes bytes.
// Throws InputError naming the path for: missing, permission denied, not a regular file,
// larger than max_bytes, or a read error.
std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes);

}  // namespace kepoch
