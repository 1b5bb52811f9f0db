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

std::string locate_protocol(const std::string& message, const std::string& field_path,
                            const std::string& what, std::optional<std::uint64_t> byte_offset) {
  std::string out = message;
  if (!field_path.empty()) out += fmt::format("{}{}", out.empty() ? "" : ": ", field_path);
  if (byte_offset) out += fmt::format("{}at byte {}", out.empty() ? "" : " ", *byte_offset);
  return out.empty() ? what : fmt::format("{}: {}", out, what);
}

}  // namespace

InputError::InputError(std::string path, const std::string& what, int line,
                       std::optional<std::uint64_t> byte_offset)
    : std::runtime_error(locate(path, what, line, byte_offset)),
      path_(std::move(path)),
      line_(line),
      byte_offset_(byte_offset) {}

ProtocolError::ProtocolError(std::string message, std::string field_path, const std::string& what,
                             std::optional<std::uint64_t> byte_offset)
    : std::runtime_error(locate_protocol(message, field_path, what, byte_offset)),
      message_(std::move(message)),
      field_path_(std::move(field_path)),
      byte_offset_(byte_offset) {}

}  // namespace kepoch
