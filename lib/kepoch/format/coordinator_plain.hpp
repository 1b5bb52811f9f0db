#pragma once
// Coordinator records other than OffsetCommit (offset_commit_fast.hpp) read by straight-line
// code, for a writer that renders the usual record without the schema walk: a record's key
// (every record type: a few classic strings and int32s), a tombstone (a key alone: a quarter
// of a group's lifecycle records, every member that leaves), and the values of the commonest
// KIP-848 records of __consumer_offsets (ConsumerGroupMetadata, ...TargetAssignmentMetadata,
// ...TargetAssignmentMember, ...CurrentMemberAssignment, ...MemberMetadata,
// ...RegularExpression); and the classic reads (nullable_string16, count32, bytes32) by which
// the JSON writer reads a classic group's GroupMetadataValue v3 as it writes it.
//
// Each reader accepts only what the schema walk (write_coordinator_key/value, or their strict
// forms in coordinator_write.hpp) writes without a note and without an error, and returns the
// fields as that walk writes them, in schema order:
//   key      every field a non-null classic string (int16 length) or an int32, at the type's
//            key version; nothing after (the type's int16 first)
//   values   (version 0, flexible) one-byte uvarint lengths and counts; no null string or
//            array the schema refuses (a nullable string's null is read as one); a tagged
//            section empty or the schema's one tagged field alone (tag 0, its size exactly
//            its content; MemberMetadata's classic_member_metadata only null); nothing after
// Anything else (a null, a length past the end or in a longer varint, another tag, bytes left
// over, an array longer than kMaxPlainTopics or kMaxPlainTexts, another record type or
// version) returns false:
// the caller takes the general walk, which gives the record's notes or its error. Not part
// of the library's interface.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/metadata_schema.hpp"
#include "kepoch/format/offset_commit_fast.hpp"

namespace kepoch {

// A key field as read: a string's text, or an int32 (`is_int`).
// Trivial (no initializers), as the lists below: a record's reading sets what it uses, and
// nothing is zeroed per record.
struct PlainKeyField {
  std::string_view text;
  std::int32_t value;
  bool is_int;
};
inline constexpr std::size_t kMaxPlainKeyFields = 4;
struct PlainCoordinatorKey {
  std::array<PlainKeyField, kMaxPlainKeyFields> fields;
  std::size_t size;
};

// Whether every field of `type`'s key schema at its key version is one read_plain_key takes
// (a non-array string or int32 there; classic, not flexible) and there are at most
// kMaxPlainKeyFields of them: decided once per type by the caller.
inline bool plain_key_schema(const CoordinatorRecordType& type) {
  const auto kv = type.key_version;
  if (type.key.flexible_from >= 0 && kv >= type.key.flexible_from) return false;
  if (type.key.fields.size() > kMaxPlainKeyFields || type.key.fields.empty()) return false;
  for (const SchemaField& f : type.key.fields) {
    if (f.array || kv < f.first_version || kv > f.last_version || f.tagged_from >= 0) return false;
    if (f.type != SchemaType::string && f.type != SchemaType::int32) return false;
  }
  return true;
}

// The key's fields (plain_key_schema(*r.type) known true).
[[gnu::always_inline]] inline bool read_plain_key(const CheckedCoordinatorRecord& r,
                                                  PlainCoordinatorKey& k) {
  offset_commit_detail::Cursor in{r.key.data(), r.key.size()};
  in.i16();  // the type
  const auto& fields = r.type->key.fields;
  k.size = fields.size();
  for (std::size_t i = 0; i < k.size; ++i) {
    PlainKeyField& f = k.fields[i];
    f.is_int = fields[i].type == SchemaType::int32;
    if (f.is_int)
      f.value = in.i32();
    else
      f.text = in.string16();
  }
  return in.ok && in.left == 0;
}

// A tombstone: no value, no value version (peek_coordinator_record's).
inline bool plain_tombstone(const CheckedCoordinatorRecord& r) {
  return !r.value && !r.value_version;
}

namespace coordinator_plain_detail {

using offset_commit_detail::Cursor;

// A compact array's count of a one-byte uvarint (n + 1; 0 is a null, refused).
inline std::size_t compact_count(Cursor& in) {
  const std::uint8_t b = in.u8();
  if (b == 0 || b >= 0x80) in.ok = false;
  return in.ok ? static_cast<std::size_t>(b - 1) : 0;
}
// `n` int32s in place (big-endian), their bytes.
inline const std::uint8_t* int32s(Cursor& in, std::size_t n) {
  if (!in.take(n * 4)) return nullptr;
  const std::uint8_t* p = in.p;
  in.advance(n * 4);
  return p;
}
// The value cursor of a version-0 value (its version read), or a failed one.
inline Cursor value_v0(const CheckedCoordinatorRecord& r) {
  if (!r.value || !r.value_version || *r.value_version != 0) return Cursor{nullptr, 0, false};
  Cursor in{r.value->data(), r.value->size()};
  if (in.i16() != 0) in.ok = false;
  return in;
}
// An empty tagged section (one byte, 0).
inline void empty_tags(Cursor& in) {
  if (in.u8() != 0) in.ok = false;
}

}  // namespace coordinator_plain_detail

// ConsumerGroupMetadataValue (type 3: epoch, tagged metadata_hash) and
// ConsumerGroupTargetAssignmentMetadataValue (type 6: assignment_epoch, tagged
// assignment_timestamp): an int32, then an int64 in tag 0 or nothing.
struct PlainEpochValue {
  std::int32_t epoch = 0;
  bool has_tagged = false;
  std::int64_t tagged = 0;
};
[[gnu::always_inline]] inline bool read_plain_epoch_value(const CheckedCoordinatorRecord& r,
                                                          PlainEpochValue& v) {
  auto in = coordinator_plain_detail::value_v0(r);
  v.epoch = in.i32();
  const std::uint8_t count = in.u8();
  v.has_tagged = count == 1;
  if (v.has_tagged) {
    const std::uint8_t tag = in.u8();
    const std::uint8_t size = in.u8();
    if (tag != 0 || size != 8) return false;
    v.tagged = in.i64();
  } else if (count != 0) {
    return false;
  }
  return in.ok && in.left == 0;
}

// A topic's partitions of a KIP-848 assignment: the topic id, its partitions (int32s in
// place) and, ConsumerGroupCurrentMemberAssignment's, the tagged assignment_epochs.
struct PlainTopicPartitions {
  const std::uint8_t* topic_id;  // 16 bytes
  const std::uint8_t* partitions;
  std::size_t partition_count;
  bool has_epochs;
  const std::uint8_t* epochs;
  std::size_t epoch_count;
};
inline constexpr std::size_t kMaxPlainTopics = 8;
struct PlainTopicList {
  std::array<PlainTopicPartitions, kMaxPlainTopics> topics;
  std::size_t size;
};

namespace coordinator_plain_detail {

// A compact array of TopicPartitions (topic_id, partitions, then the element's tagged
// section: empty, or, `epochs`, assignment_epochs in tag 0 alone, its size exactly its bytes).
inline void topic_list(Cursor& in, PlainTopicList& list, bool epochs) {
  list.size = compact_count(in);
  if (list.size > kMaxPlainTopics) in.ok = false;
  if (!in.ok) return;
  for (std::size_t i = 0; i < list.size; ++i) {
    PlainTopicPartitions& t = list.topics[i];
    if (!in.take(16)) return;
    t.topic_id = in.p;
    in.advance(16);
    t.partition_count = compact_count(in);
    t.partitions = int32s(in, t.partition_count);
    const std::uint8_t count = in.u8();
    t.has_epochs = epochs && count == 1;
    if (t.has_epochs) {
      const std::uint8_t tag = in.u8();
      const std::uint8_t size = in.u8();
      t.epoch_count = compact_count(in);
      t.epochs = int32s(in, t.epoch_count);
      if (tag != 0 || size >= 0x80 || size != 1 + 4 * t.epoch_count) in.ok = false;
    } else if (count != 0) {
      in.ok = false;
    }
    if (!in.ok) return;
  }
}

}  // namespace coordinator_plain_detail

// ConsumerGroupTargetAssignmentMemberValue (type 7): topic_partitions.
[[gnu::always_inline]] inline bool read_plain_target_member(const CheckedCoordinatorRecord& r,
                                                            PlainTopicList& topics) {
  auto in = coordinator_plain_detail::value_v0(r);
  coordinator_plain_detail::topic_list(in, topics, false);
  coordinator_plain_detail::empty_tags(in);
  return in.ok && in.left == 0;
}

// ConsumerGroupCurrentMemberAssignmentValue (type 8).
struct PlainCurrentAssignment {
  std::int32_t member_epoch = 0;
  std::int32_t previous_member_epoch = 0;
  std::int8_t state = 0;
  PlainTopicList assigned;
  PlainTopicList pending_revocation;
};
[[gnu::always_inline]] inline bool read_plain_current_assignment(const CheckedCoordinatorRecord& r,
                                                                 PlainCurrentAssignment& a) {
  auto in = coordinator_plain_detail::value_v0(r);
  a.member_epoch = in.i32();
  a.previous_member_epoch = in.i32();
  a.state = static_cast<std::int8_t>(in.u8());
  coordinator_plain_detail::topic_list(in, a.assigned, true);
  coordinator_plain_detail::topic_list(in, a.pending_revocation, true);
  coordinator_plain_detail::empty_tags(in);
  return in.ok && in.left == 0;
}

// A compact array of non-null compact strings (a member's subscribed topics, a regular
// expression's topics), at most kMaxPlainTexts of them.
inline constexpr std::size_t kMaxPlainTexts = 16;
struct PlainTextList {
  std::array<const char*, kMaxPlainTexts> data;  // trivial: not zeroed per record
  std::array<std::size_t, kMaxPlainTexts> sizes;
  std::size_t size;
  std::string_view text(std::size_t i) const { return {data[i], sizes[i]}; }
};

namespace coordinator_plain_detail {

inline void text_list(Cursor& in, PlainTextList& list) {
  list.size = compact_count(in);
  if (list.size > kMaxPlainTexts) in.ok = false;
  for (std::size_t i = 0; in.ok && i < list.size; ++i) {
    const std::string_view t = in.compact_string();
    list.data[i] = t.data();
    list.sizes[i] = t.size();
  }
}
// A nullable compact string of a one-byte uvarint: `null` when its length byte is 0.
inline std::string_view nullable_string(Cursor& in, bool& null) {
  null = in.left > 0 && *in.p == 0;
  if (!null) return in.compact_string();
  in.advance(1);
  return {};
}

}  // namespace coordinator_plain_detail

namespace coordinator_plain_detail {

// Classic (non-flexible) reads of a GroupMetadataValue and of the consumer protocol's
// Subscription and Assignment it holds: a nullable string of an int16 length (`null` when
// negative, as the walk reads it); an array's int32 count, refused negative (not nullable
// here) or past what is left; bytes of an int32 length, `null` when negative.
inline std::string_view nullable_string16(Cursor& in, bool& null) {
  const std::int16_t n = in.i16();
  null = in.ok && n < 0;
  if (null || !in.ok) return {};
  return in.text(static_cast<std::size_t>(n));
}
inline std::size_t count32(Cursor& in) {
  const std::int32_t n = in.i32();
  if (n < 0 || static_cast<std::size_t>(n) > in.left) in.ok = false;
  return in.ok ? static_cast<std::size_t>(n) : 0;
}
inline std::span<const std::uint8_t> bytes32(Cursor& in, bool& null) {
  const std::int32_t n = in.i32();
  null = in.ok && n < 0;
  if (null || !in.ok || !in.take(static_cast<std::size_t>(n))) return {};
  const std::span<const std::uint8_t> b(in.p, static_cast<std::size_t>(n));
  in.advance(static_cast<std::size_t>(n));
  return b;
}

}  // namespace coordinator_plain_detail

// ConsumerGroupRegularExpressionValue (type 16): topics, version, timestamp.
struct PlainRegularExpression {
  PlainTextList topics;
  std::int64_t version = 0;
  std::int64_t timestamp = 0;
};
[[gnu::always_inline]] inline bool read_plain_regular_expression(const CheckedCoordinatorRecord& r,
                                                                 PlainRegularExpression& v) {
  auto in = coordinator_plain_detail::value_v0(r);
  coordinator_plain_detail::text_list(in, v.topics);
  v.version = in.i64();
  v.timestamp = in.i64();
  coordinator_plain_detail::empty_tags(in);
  return in.ok && in.left == 0;
}

// ConsumerGroupMemberMetadataValue (type 5). classic_member_metadata (tag 0, a nullable
// struct) is taken only absent (an empty section) or null (tag 0 of one byte, 0: Kafka's
// write of a member of the consumer protocol).
struct PlainMemberMetadata {
  std::string_view instance_id, rack_id, client_id, client_host, subscribed_topic_regex,
      server_assignor;
  bool instance_id_null = false, rack_id_null = false, regex_null = false,
       server_assignor_null = false;
  PlainTextList subscribed_topic_names;
  std::int32_t rebalance_timeout_ms = 0;
  bool classic_null = false;  // tag 0 present, null; else absent
};
[[gnu::always_inline]] inline bool read_plain_member_metadata(const CheckedCoordinatorRecord& r,
                                                              PlainMemberMetadata& m) {
  using namespace coordinator_plain_detail;
  auto in = value_v0(r);
  m.instance_id = nullable_string(in, m.instance_id_null);
  m.rack_id = nullable_string(in, m.rack_id_null);
  m.client_id = in.compact_string();
  m.client_host = in.compact_string();
  text_list(in, m.subscribed_topic_names);
  m.subscribed_topic_regex = nullable_string(in, m.regex_null);
  m.rebalance_timeout_ms = in.i32();
  m.server_assignor = nullable_string(in, m.server_assignor_null);
  const std::uint8_t count = in.u8();
  m.classic_null = count == 1;
  if (m.classic_null) {
    const std::uint8_t tag = in.u8();
    const std::uint8_t size = in.u8();
    const std::uint8_t null = in.u8();
    if (tag != 0 || size != 1 || null != 0) return false;
  } else if (count != 0) {
    return false;
  }
  return in.ok && in.left == 0;
}

}  // namespace kepoch
