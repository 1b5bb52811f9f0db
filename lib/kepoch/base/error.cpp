#include "kepoch/base/error.hpp"

#include <fmt/format.h>

namespace kepoch {
namespace {

std::string locate(const std::string& path, const std::string& what, int line,
                   std::optional<std::uint64_t> byte_offset) {
  if (line > 0) return fmt::format("{}:{}: {}", path, line, what);
  if (byte_offset) return fmt::format("{}: at byte {}: {}", path, *byte_offset, what);
  return fmt::format("{}: {}", path, what);
}

}  // namespace

InputError::InputError(std::string path, const std::string& what, int line,
                       std::optional<std::uint64_t> byte_offset)
    : std::runtime_error(locate(path, what, line, byte_offset)),
      path_(std::move(path)),
      line_(line),
      byte_offset_(byte_offset) {}

}  // namespace kepoch
