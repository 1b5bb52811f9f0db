#include <catch2/catch.hpp>

#include "kepoch/cluster/sasl_plain.hpp"
#include "kepoch/cluster/scram_client.hpp"

using namespace kepoch::cluster;
using Catch::Matchers::Contains;

namespace {

std::vector<std::uint8_t> bytes(std::string_view s) {
  return {s.begin(), s.end()};
}
std::string text(const std::vector<std::uint8_t>& b) {
  return {b.begin(), b.end()};
}

}  // namespace

// RFC 7677 section 3: user "user", password "pencil", client nonce rOprNGfwEbeRWgbNEkqO.
TEST_CASE("SCRAM-SHA-256 reproduces RFC 7677's example exchange", "[cluster][sasl][scram]") {
  ScramSaslClient c(ScramSaslClient::Hash::kSha256, "user", Secret("pencil"),
                    "rOprNGfwEbeRWgbNEkqO");
  CHECK(c.mechanism() == "SCRAM-SHA-256");
  CHECK(text(c.step({})) == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  CHECK(text(c.step(bytes("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                          "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"))) ==
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  CHECK_FALSE(c.complete());
  CHECK(c.step(bytes("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")).empty());
  CHECK(c.complete());
}

// Expected values from tests/unit/cluster/scram_vectors.py (Python hashlib/hmac, an
// implementation independent of this one; the script re-derives RFC 7677's example too).
TEST_CASE("SCRAM-SHA-512 matches an independent implementation", "[cluster][sasl][scram]") {
  ScramSaslClient c(ScramSaslClient::Hash::kSha512, "kepoch", Secret("kepoch-secret"),
                    "fyko+d2lbbFgONRv9qkxdawL");
  CHECK(c.mechanism() == "SCRAM-SHA-512");
  CHECK(text(c.step({})) == "n,,n=kepoch,r=fyko+d2lbbFgONRv9qkxdawL");
  CHECK(
      text(c.step(
          bytes("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096"))) ==
      "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,"
      "p=tU2MYUC0bC+i/1NCbCul43sMFNEUPioX+oQXisOeLGuktb5TVdCZ1AlmoOgtd0r8Oc29AJnxx2kLDV50Uh/8vQ==");
  CHECK(
      c.step(bytes("v=2RZ1/Bpz3qNADHoED7YHxmoVVCvdoXKKQ99egDcSvxVeJ2j9jzTCmPRCvNkIOnCDE9ET5v8QoeCt+"
                   "OesPGcCmw=="))
          .empty());
  CHECK(c.complete());
}

TEST_CASE("SCRAM: user names escape ',' and '=', nonces are random", "[cluster][sasl][scram]") {
  ScramSaslClient c(ScramSaslClient::Hash::kSha256, "a,b=c", Secret("p"), "N");
  CHECK(text(c.step({})) == "n,,n=a=2Cb=3Dc,r=N");
  ScramSaslClient r1(ScramSaslClient::Hash::kSha256, "u", Secret("p"));
  ScramSaslClient r2(ScramSaslClient::Hash::kSha256, "u", Secret("p"));
  const auto first1 = text(r1.step({}));
  CHECK(first1.size() == std::string("n,,n=u,r=").size() + 32);  // 24 random bytes, base64
  CHECK(first1 != text(r2.step({})));
}

TEST_CASE("SCRAM refuses server messages outside the mechanism", "[cluster][sasl][scram]") {
  const auto after_first = [](const std::string& server_first) {
    ScramSaslClient c(ScramSaslClient::Hash::kSha256, "user", Secret("pencil"), "abc");
    c.step({});
    try {
      c.step(bytes(server_first));
    } catch (const SaslError& e) {
      CHECK(e.kind() == SaslError::Kind::kMalformed);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(after_first("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"), Contains("accepted"));
  CHECK_THAT(after_first("r=xyzdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"),
             Contains("does not extend ours"));
  CHECK_THAT(after_first("r=abc,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"),
             Contains("does not extend ours"));
  CHECK_THAT(after_first("r=abcdef,s=not base64!,i=4096"), Contains("salt (s=) is not base64"));
  CHECK_THAT(after_first("r=abcdef,s=,i=4096"), Contains("salt (s=) is not base64"));
  CHECK_THAT(after_first("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4095"),
             Contains("iteration count 4095 is outside 4096..100000"));
  CHECK_THAT(after_first("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=2000000000"), Contains("outside"));
  CHECK_THAT(after_first("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=99999999999"),
             Contains("not a number"));
  CHECK_THAT(after_first("r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4k"), Contains("not a number"));
  CHECK_THAT(after_first("m=ext,r=abcdef,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"),
             Contains("extension (m=)"));
  CHECK_THAT(after_first("s=W22ZaJ0SNY7soEsUEjb6gQ==,r=abcdef,i=4096"),
             Contains("not r=...,s=...,i="));
  CHECK_THAT(after_first("garbage"), Contains("not a list of a=value"));
  CHECK_THAT(after_first(""), Contains("not r=...,s=...,i="));
}

TEST_CASE("SCRAM: server errors and wrong signatures are refusals", "[cluster][sasl][scram]") {
  const auto final_step = [](const std::string& server_final) {
    ScramSaslClient c(ScramSaslClient::Hash::kSha256, "user", Secret("pencil"),
                      "rOprNGfwEbeRWgbNEkqO");
    c.step({});
    c.step(bytes(
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"));
    try {
      c.step(bytes(server_final));
    } catch (const SaslError& e) {
      CHECK_FALSE(c.complete());
      return std::pair(e.kind(), std::string(e.what()));
    }
    return std::pair(SaslError::Kind::kMalformed, std::string("accepted"));
  };
  auto [kind, what] = final_step("e=invalid-proof");
  CHECK(kind == SaslError::Kind::kRejected);
  CHECK(what == "SCRAM-SHA-256: the server refused the authentication: invalid-proof");
  std::tie(kind, what) = final_step("v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
  CHECK(kind == SaslError::Kind::kRejected);
  CHECK_THAT(what, Contains("the server's signature is wrong"));
  std::tie(kind, what) = final_step("x=1");
  CHECK(kind == SaslError::Kind::kMalformed);
  CHECK_THAT(what, !Contains("pencil"));
}

TEST_CASE("PLAIN sends one message: empty authzid, user, password", "[cluster][sasl]") {
  PlainSaslClient c("alice", Secret("alice-secret"));
  CHECK(c.mechanism() == "PLAIN");
  CHECK_FALSE(c.complete());
  const auto m = c.step({});
  CHECK(text(m) == std::string("\0alice\0alice-secret", 19));
  CHECK(c.complete());
  CHECK_THROWS_AS(c.step(bytes("more?")), SaslError);
}
