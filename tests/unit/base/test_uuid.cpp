// Pins org.apache.kafka.common.Uuid.fromString / toString (java.util.Base64 URL decoder).
#include <catch2/catch.hpp>

#include "kepoch/base/uuid.hpp"

using kepoch::parse_uuid;

TEST_CASE("Uuid round-trips through its 22-character base64url form", "[base][Uuid]") {
  const auto p = parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A");
  REQUIRE(p.ok);
  CHECK(p.uuid.to_string() == "b8tRS7h4TJ2Vt43Dp85v2A");
  CHECK_FALSE(p.uuid.is_zero());
}

TEST_CASE("Uuid.fromString: the zero and reserved ids", "[base][Uuid]") {
  const auto zero = parse_uuid("AAAAAAAAAAAAAAAAAAAAAA");
  REQUIRE(zero.ok);
  CHECK(zero.uuid.is_zero());
  CHECK(zero.uuid.is_reserved());
  const auto metadata_topic = parse_uuid("AAAAAAAAAAAAAAAAAAAAAQ");
  REQUIRE(metadata_topic.ok);
  CHECK(metadata_topic.uuid.is_reserved());
  CHECK_FALSE(metadata_topic.uuid.is_zero());
}

TEST_CASE("Uuid.fromString accepts well-formed padding", "[base][Uuid]") {
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A==").ok);
  CHECK_FALSE(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A=").ok);  // wrong 4-byte ending unit
}

TEST_CASE("Uuid.fromString rejects what Java rejects", "[base][Uuid]") {
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A1234").error.find("too long") != std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v").error.find("15 bytes") != std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2").error.find("enough valid bits") != std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2AB").error.find("17 bytes") != std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2+").error.find("Illegal base64 character") !=
        std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A ").error.find("Illegal") != std::string::npos);
  CHECK(parse_uuid("b8tRS7h4TJ2Vt43Dp85v2A=C").error.find("ending unit") != std::string::npos);
  CHECK(parse_uuid("A").error.find("enough valid bits") != std::string::npos);
}
