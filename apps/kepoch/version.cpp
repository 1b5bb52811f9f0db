#include "version.hpp"

#include "kepoch_build_info.hpp"

#ifndef KEPOCH_VERSION
#define KEPOCH_VERSION "unknown"
#endif

namespace kepoch::cli {

std::string version_text() {
  return "kepoch " KEPOCH_VERSION "\ncommit " KEPOCH_GIT_COMMIT
         "\ntested against Apache Kafka " KEPOCH_TESTED_KAFKA
         " (real clusters, tests/kafka/kafka-version); fixtures written by "
         "Kafka " KEPOCH_FIXTURE_KAFKA "\n" KEPOCH_MATRIX_KAFKA;
}

}  // namespace kepoch::cli
