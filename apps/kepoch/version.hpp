#pragma once
// What `kepoch --version` prints: the version, the git commit it was built from ("unknown"
// from a tarball) and the Kafka versions the tests run against.

#include <string>

namespace kepoch::cli {

std::string version_text();

}  // namespace kepoch::cli
