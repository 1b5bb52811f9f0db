#pragma once
// Every file kepoch writes goes through here (an --html page, `logdir snapshot --file`,
// plan's --out-dir files, the profile config): the rule of storage/output_target.hpp decides
// where a write may land, from the command's own inputs; this file only opens and writes.
// A regular file is replaced whole (a temporary file beside it, then a rename), a FIFO or a
// character device is written in place, and a FIFO nobody reads yet is said on stderr
// before kepoch waits for its reader.

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/storage/output_target.hpp"

namespace kepoch::cli {

// --overwrite: replace an existing file kepoch did not write (the global flag sets it).
void set_overwrite(bool overwrite);

// UsageError when `path` may not be written by a run reading `inputs` (arguments as given).
// Call before reading the inputs, so a refused run costs nothing.
void check_output(const std::string& flag, const std::string& path, OutputKind kind,
                  const std::vector<std::string>& inputs);

// Checks again, then writes what `body` puts on the stream. InputError naming `path` when it
// cannot be created ("cannot create the <what>: ...") or written ("cannot write the
// <what>: ..."); a replaced file is then left as it was.
void write_output(const std::string& flag, const std::string& path, OutputKind kind,
                  const std::vector<std::string>& inputs, std::string_view what,
                  const std::function<void(std::ostream&)>& body);

}  // namespace kepoch::cli
