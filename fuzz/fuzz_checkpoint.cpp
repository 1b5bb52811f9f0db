// libFuzzer target: the text checkpoint parsers (leader-epoch, offsets of every role,
// partition.metadata, meta.properties) through check_checkpoint, as `checkpoint validate`
// runs them. Only kepoch's own errors (InputError, FormatError) may leave a parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/checkpoint_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kepoch;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const CheckpointType types[] = {
      {CheckpointKind::leader_epoch, OffsetsRole::unknown, false},
      {CheckpointKind::offsets, OffsetsRole::recovery_point, false},
      {CheckpointKind::offsets, OffsetsRole::log_start_offset, false},
      {CheckpointKind::offsets, OffsetsRole::high_watermark, false},
      {CheckpointKind::offsets, OffsetsRole::cleaner_offset, false},
      {CheckpointKind::partition_metadata, OffsetsRole::unknown, false},
      {CheckpointKind::meta_properties, OffsetsRole::unknown, false},
  };
  for (const auto& type : types) {
    try {
      auto report = check_checkpoint(text, "fuzz-0/checkpoint", type, {}, CheckDepth::validate);
      lint_epochs_against_log_end(report, 100);
    } catch (const InputError&) {
    } catch (const FormatError&) {
    }
  }
  return 0;
}
