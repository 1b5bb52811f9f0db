#include "version.hpp"

#include "kepoch_build_info.hpp"

#ifndef KEPOCH_VERSION
#define KEPOCH_VERSION "unknown"
#endif

// The static build (preset static) says what it leaves out: NSS (names resolve through
// /etc/hosts and DNS only, cluster/host_resolver.hpp) and libsasl2 (apps/kepoch/static/).
#ifdef KEPOCH_STATIC_BUILD
#define KEPOCH_BUILD_KIND                                                                    \
  "\nstatic build (no shared libraries): host names resolve through /etc/hosts and the DNS " \
  "servers of /etc/resolv.conf only, not NSS; libsasl2 is left out, which costs nothing "    \
  "kepoch uses (SASL PLAIN and SCRAM are kepoch's own; GSSAPI and OAUTHBEARER are in no build)"
#else
#define KEPOCH_BUILD_KIND ""
#endif

namespace kepoch::cli {

std::string version_text() {
  return "kepoch " KEPOCH_VERSION "\ncommit " KEPOCH_GIT_COMMIT
         "\ntested against Apache Kafka " KEPOCH_TESTED_KAFKA
         " (real clusters, tests/kafka/kafka-version); fixtures written by "
         "Kafka " KEPOCH_FIXTURE_KAFKA KEPOCH_BUILD_KIND "\n" KEPOCH_MATRIX_KAFKA;
}

}  // namespace kepoch::cli
