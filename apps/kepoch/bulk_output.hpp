#pragma once
// write_output (output_file.hpp) for a large output (a salvage archive): `body` writes into
// a BulkFileWriter, whose second thread writes the chunks while the body makes the next; a
// replaced file's chunks go out with O_DIRECT where its file system takes it, and it is
// fsynced before the rename, as write_output's are. Same rule, same errors.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/bulk_file_writer.hpp"
#include "kepoch/storage/output_target.hpp"

namespace kepoch::cli {

void write_output_bulk(const std::string& flag, const std::string& path, OutputKind kind,
                       const std::vector<std::string>& inputs, std::string_view what,
                       const std::function<void(BulkFileWriter&)>& body);

}  // namespace kepoch::cli
