// Every field type of Kafka's message generator through the generic codec, on a schema
// made for the test (the ten APIs kepoch speaks use no uint16, uint32, float64, records,
// uuid arrays or tagged structs): the bytes are worked out by hand from
// MessageDataGenerator's writers, for a non-flexible and a flexible version.
#include <catch2/catch.hpp>

#include "kafka_vectors.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;
using namespace kepoch::cluster::protocol::testing;
using enum FieldType;

constexpr FieldSchema kInnerFields[] = {{.name = "a", .type = kInt16, .versions = since(0)}};
constexpr StructSchema kInner{"Inner", kInnerFields};

constexpr FieldSchema kFields[] = {
    {.name = "b", .type = kBool, .versions = since(0)},
    {.name = "i8", .type = kInt8, .versions = since(0)},
    {.name = "i16", .type = kInt16, .versions = since(0)},
    {.name = "u16", .type = kUint16, .versions = since(0)},
    {.name = "i32", .type = kInt32, .versions = since(0)},
    {.name = "u32", .type = kUint32, .versions = since(0)},
    {.name = "i64", .type = kInt64, .versions = since(0)},
    {.name = "f64", .type = kFloat64, .versions = since(0), .default_value = "0.5"},
    {.name = "id", .type = kUuid, .versions = since(0)},
    {.name = "s", .type = kString, .versions = since(0)},
    {.name = "ns", .type = kString, .versions = since(0), .nullable_versions = since(0)},
    {.name = "by", .type = kBytes, .versions = since(0)},
    {.name = "rec", .type = kRecords, .versions = since(0), .nullable_versions = since(0)},
    {.name = "ints", .type = kArray, .versions = since(0), .element_type = kInt32},
    {.name = "strs", .type = kArray, .versions = since(0), .element_type = kString},
    {.name = "ids", .type = kArray, .versions = since(0), .element_type = kUuid},
    {.name = "inners", .type = kArray, .versions = since(0), .fields = &kInner},
    {.name = "opt",
     .type = kStruct,
     .versions = since(0),
     .nullable_versions = since(0),
     .default_value = "null",
     .fields = &kInner},
    {.name = "tagged_s",
     .type = kString,
     .versions = since(1),
     .nullable_versions = since(1),
     .tagged_versions = since(1),
     .tag = 0,
     .ignorable = true,
     .default_value = "x"},
    {.name = "tagged_n",
     .type = kInt32,
     .versions = since(1),
     .tagged_versions = since(1),
     .tag = 1,
     .ignorable = true,
     .default_value = "0x10"},
    {.name = "tagged_inner",
     .type = kStruct,
     .versions = since(1),
     .nullable_versions = since(1),
     .tagged_versions = since(1),
     .tag = 2,
     .ignorable = true,
     .default_value = "null",
     .fields = &kInner},
    {.name = "late",
     .type = kInt8,
     .versions = since(2),
     .tagged_versions = since(2),
     .tag = 3,
     .ignorable = true},
};

constexpr MessageSchema kAllTypes{ApiKey::kMetadata, MessageKind::kResponse, between(0, 2),
                                  since(1), StructSchema{"AllTypes", kFields}};

Uuid counting_uuid() {
  Uuid u;
  for (std::uint8_t i = 0; i < 16; ++i)
    u.bytes[i] = i;
  return u;
}

Struct inner(std::int16_t a) {
  Struct s(kInner);
  s.set_int16("a", a);
  return s;
}

Struct sample() {
  Struct s(kAllTypes.body);
  s.set_bool("b", true)
      .set_int8("i8", -2)
      .set_int16("i16", -3)
      .set_uint16("u16", 0xfffe)
      .set_int32("i32", -4)
      .set_uint32("u32", 0xfffffffe)
      .set_int64("i64", -5)
      .set_float64("f64", 1.5)
      .set_uuid("id", counting_uuid())
      .set_string("s", "\xc3\xa9")
      .set_null("ns")
      .set_bytes("by", {0xde, 0xad})
      .set_bytes("rec", {1, 2, 3})
      .set_int32_array("ints", {1, -1})
      .set_string_array("strs", {"a", ""})
      .set("ids", Value(Array{Value(counting_uuid())}))
      .set("inners", Value(Array{Value(inner(7)), Value(inner(8))}))
      .set("opt", Value(inner(9)))
      .set_null("tagged_s")
      .set_int32("tagged_n", 6)
      .set("tagged_inner", Value(inner(10)));
  return s;
}

const std::string kFixed =
    "01"                                 // b
    "fe"                                 // i8
    "fffd"                               // i16
    "fffe"                               // u16
    "fffffffc"                           // i32
    "fffffffe"                           // u32
    "fffffffffffffffb"                   // i64
    "3ff8000000000000"                   // f64 1.5
    "000102030405060708090a0b0c0d0e0f";  // id

}  // namespace

TEST_CASE("Every field type in a non-flexible version", "[protocol]") {
  const Struct s = sample();
  const auto bytes = encode_message(kAllTypes, 0, s);
  CHECK(to_hex(bytes) == kFixed +
                             "0002c3a9"                                  // s
                             "ffff"                                      // ns: null
                             "00000002dead"                              // by
                             "00000003010203"                            // rec
                             "0000000200000001ffffffff"                  // ints
                             "000000020001610000"                        // strs
                             "00000001000102030405060708090a0b0c0d0e0f"  // ids
                             "0000000200070008"                          // inners
                             "010009");                                  // opt
  // The tagged fields are not in v0 (ignorable, so dropped): they read back as defaults.
  Struct expected = s;
  expected.set_string("tagged_s", "x").set_int32("tagged_n", 16).set_null("tagged_inner");
  CHECK(decode_message(kAllTypes, 0, bytes) == expected);
}

TEST_CASE("Every field type in a flexible version, tagged fields in tag order", "[protocol]") {
  const Struct s = sample();
  const auto bytes = encode_message(kAllTypes, 1, s);
  CHECK(to_hex(bytes) == kFixed +
                             "03c3a9"                              // s: compact
                             "00"                                  // ns: null
                             "03dead"                              // by
                             "04010203"                            // rec
                             "0300000001ffffffff"                  // ints
                             "03026101"                            // strs
                             "02000102030405060708090a0b0c0d0e0f"  // ids
                             "03000700000800"                      // inners, each + tags
                             "01000900"                            // opt
                             "03"                                  // three tagged fields:
                             "000100"        // 0 tagged_s: null (its default is "x")
                             "010400000006"  // 1 tagged_n
                             "020401000a00"  // 2 tagged_inner: marker 1, struct
  );
  CHECK(decode_message(kAllTypes, 1, bytes) == s);
}

TEST_CASE("Tagged fields at their default are not written", "[protocol]") {
  Struct s(kAllTypes.body);
  CHECK(s.get_float64("f64") == 0.5);
  CHECK(s.get_int32("tagged_n") == 16);
  const auto bytes = encode_message(kAllTypes, 1, s);
  // s "", ns "" (a nullable string defaults to empty unless its default is "null"), by
  // empty, rec null (records default to null), ints, strs, ids, inners empty, opt null
  // (int8 -1), no tagged field.
  CHECK(to_hex(bytes).ends_with("0101010001010101ff00"));
  CHECK(decode_message(kAllTypes, 1, bytes) == s);
}

TEST_CASE("A tag that belongs to a later version is an error", "[protocol]") {
  auto bytes = encode_message(kAllTypes, 1, Struct(kAllTypes.body));
  bytes.back() = 0x01;  // one tagged field: tag 3 ("late", v2+), size 1, value 0
  bytes.insert(bytes.end(), {0x03, 0x01, 0x00});
  try {
    decode_message(kAllTypes, 1, bytes);
    FAIL("decoded");
  } catch (const ProtocolError& e) {
    CHECK(e.field_path() == "tagged_fields");
    CHECK(std::string(e.what()).find("expected a tag valid in v1, found tag 3 (late)") !=
          std::string::npos);
  }
  CHECK(decode_message(kAllTypes, 2, bytes).get_int8("late") == 0);
}
