// The static build only (preset static): Cyrus SASL (libsasl2) has no static archive in
// Debian, and librdkafka.a refers to it for its GSSAPI (Kerberos) mechanism. kepoch uses
// librdkafka for one thing, checking -X properties the way kcat users expect
// (rd_kafka_conf_set, lib/kepoch/cluster/librdkafka_properties.cpp); it never makes a
// librdkafka client, so librdkafka never calls these. kepoch's own SASL (PLAIN, SCRAM-SHA-256,
// SCRAM-SHA-512) is its own code in every build, and GSSAPI is refused in every build
// (parse_sasl_mechanism). Should librdkafka ever call one, it fails as libsasl2 does when no
// mechanism is available: SASL_FAIL / SASL_NOMECH, never a crash.
//
// The signatures follow <sasl/sasl.h> (Cyrus SASL 2.1); the pointer types are opaque here.

namespace {
constexpr int kSaslFail = -1;    // SASL_FAIL
constexpr int kSaslNoMech = -4;  // SASL_NOMECH
constexpr const char* kAbsent = "libsasl2 is not part of kepoch's static build";
}  // namespace

extern "C" {

int sasl_client_init(const void* /*callbacks*/) {
  return kSaslFail;
}

int sasl_client_new(const char* /*service*/, const char* /*server_fqdn*/,
                    const char* /*iplocalport*/, const char* /*ipremoteport*/,
                    const void* /*prompt_supp*/, unsigned /*flags*/, void** /*pconn*/) {
  return kSaslFail;
}

int sasl_client_start(void* /*conn*/, const char* /*mechlist*/, void** /*prompt_need*/,
                      const char** /*clientout*/, unsigned* /*clientoutlen*/,
                      const char** /*mech*/) {
  return kSaslNoMech;
}

int sasl_client_step(void* /*conn*/, const char* /*serverin*/, unsigned /*serverinlen*/,
                     void** /*prompt_need*/, const char** /*clientout*/,
                     unsigned* /*clientoutlen*/) {
  return kSaslFail;
}

void sasl_dispose(void** pconn) {
  if (pconn != nullptr) *pconn = nullptr;
}

const char* sasl_errdetail(void* /*conn*/) {
  return kAbsent;
}

const char* sasl_errstring(int /*saslerr*/, const char* /*langlist*/, const char** outlang) {
  if (outlang != nullptr) *outlang = "en-us";
  return kAbsent;
}

int sasl_getprop(void* /*conn*/, int /*propnum*/, const void** /*pvalue*/) {
  return kSaslFail;
}

int sasl_listmech(void* /*conn*/, const char* /*user*/, const char* /*prefix*/, const char* /*sep*/,
                  const char* /*suffix*/, const char** /*result*/, unsigned* /*plen*/,
                  int* /*pcount*/) {
  return kSaslNoMech;
}

}  // extern "C"
