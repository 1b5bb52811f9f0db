#pragma once
// kepoch's exit codes, the same for every command (documented in man/kepoch.1 and docs/output.md).
// When several apply, the highest wins (e.g. one unreadable file and one invalid file: 3).

namespace kepoch::cli {

enum ExitCode : int {
  kOk = 0,        // done, nothing to report
  kFindings = 1,  // findings: an invalid file, divergence, predicted loss (--strict: warnings)
  kUsage = 2,     // bad command line
  kInput = 3,     // could not read or parse an input at all
  kCluster = 4,   // cluster unreachable or refused
};

}  // namespace kepoch::cli
