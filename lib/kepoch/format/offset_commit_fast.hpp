#pragma once
// An OffsetCommit record of __consumer_offsets (record type 1: OffsetCommitKey, then
// OffsetCommitValue v0-v4) read by straight-line code, for a writer that renders the usual
// record without the schema walk: almost every record of a real __consumer_offsets log is
// one (a commit per partition per group, every auto-commit interval), and the walk through
// the key and value schemas was most of the cost of decoding one.
//
// read_plain_offset_commit accepts only a record the schema walk (write_coordinator_key and
// write_coordinator_value, or their strict forms in coordinator_write.hpp) writes without a
// note and without an error, and returns its fields as that walk writes them:
//   key    group (int16 length, not null), topic (likewise), partition (int32), nothing after
//   value  a tombstone; or its version (0-4, peek_coordinator_record's), then
//            offset int64; leader_epoch int32 (v3+); metadata (v0-3: int16 length; v4:
//            compact, a one-byte length; never null); commit_timestamp int64;
//            expire_timestamp int64 (v1 only); v4: the tagged section, empty or topic_id
//            alone (tag 0, 16 bytes, one-byte count, tag and size); nothing after
// Anything else (a null or short string, a length that lies, a longer varint, another tag,
// bytes left over, another record type) returns false: the caller takes the general walk,
// which gives the record's notes or its error. Not part of the library's interface.

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/coordinator_record.hpp"

namespace kepoch {

struct PlainOffsetCommit {
  std::string_view group;
  std::string_view topic;
  std::int32_t partition = 0;
  bool tombstone = false;  // no value: the rest is unset
  std::int16_t value_version = 0;
  std::int64_t offset = 0;
  bool has_leader_epoch = false;  // v3+
  std::int32_t leader_epoch = 0;
  std::string_view metadata;
  std::int64_t commit_timestamp = 0;
  bool has_expire_timestamp = false;  // v1
  std::int64_t expire_timestamp = 0;
  const std::uint8_t* topic_id = nullptr;  // v4, when present: its 16 bytes
};

namespace offset_commit_detail {

// A cursor over one buffer: each read checks what remains, and a failed read leaves `ok`
// false (the caller tests it once at the end; reads after a failure read nothing).
struct Cursor {
  const std::uint8_t* p;
  std::size_t left;
  bool ok = true;
  bool take(std::size_t n) {
    if (n > left) {
      ok = false;
      left = 0;
      return false;
    }
    return true;
  }
  // Each read: one bounds test, then a load (a failed one reads 0).
  std::int64_t i64() {
    if (!take(8)) return 0;
    const std::uint64_t v = load_be64(p);
    advance(8);
    return static_cast<std::int64_t>(v);
  }
  std::int32_t i32() {
    if (!take(4)) return 0;
    const std::uint32_t v = load_be32(p);
    advance(4);
    return static_cast<std::int32_t>(v);
  }
  std::int16_t i16() {
    if (!take(2)) return 0;
    const auto v = static_cast<std::uint16_t>((p[0] << 8) | p[1]);
    advance(2);
    return static_cast<std::int16_t>(v);
  }
  std::uint8_t u8() {
    if (!take(1)) return 0;
    const std::uint8_t v = *p;
    advance(1);
    return v;
  }
  void advance(std::size_t n) {
    p += n;
    left -= n;
  }
  std::string_view text(std::size_t n) {
    if (!take(n)) return {};
    const std::string_view s(reinterpret_cast<const char*>(p), n);
    advance(n);
    return s;
  }
  // A classic string: int16 length, not null (the walk refuses a null: not nullable).
  std::string_view string16() {
    const std::int16_t n = i16();
    if (n < 0) ok = false;
    return ok ? text(static_cast<std::size_t>(n)) : std::string_view();
  }
  // A compact string of a one-byte uvarint (n + 1; 0 is a null, refused); a longer varint is
  // left to the walk.
  std::string_view compact_string() {
    const std::uint8_t b = u8();
    if (b == 0 || b >= 0x80) ok = false;
    return ok ? text(static_cast<std::size_t>(b - 1)) : std::string_view();
  }
};

}  // namespace offset_commit_detail

[[gnu::always_inline]] inline bool read_plain_offset_commit(const CheckedCoordinatorRecord& r,
                                                            PlainOffsetCommit& c) {
  if (r.log != CoordinatorLog::offsets || !r.type || r.type->type != 1 || r.type->key_version != 0)
    return false;
  offset_commit_detail::Cursor k{r.key.data(), r.key.size()};
  k.i16();  // the type
  c.group = k.string16();
  c.topic = k.string16();
  c.partition = k.i32();
  if (!k.ok || k.left != 0) return false;
  c.tombstone = !r.value;
  if (c.tombstone) return !r.value_version;
  if (!r.value_version) return false;
  const std::int16_t v = *r.value_version;
  if (v < 0 || v > 4) return false;
  c.value_version = v;
  offset_commit_detail::Cursor in{r.value->data(), r.value->size()};
  if (in.i16() != v) return false;
  c.offset = in.i64();
  c.has_leader_epoch = v >= 3;
  if (c.has_leader_epoch) c.leader_epoch = in.i32();
  c.metadata = v >= 4 ? in.compact_string() : in.string16();
  c.commit_timestamp = in.i64();
  c.has_expire_timestamp = v == 1;
  if (c.has_expire_timestamp) c.expire_timestamp = in.i64();
  c.topic_id = nullptr;
  if (v >= 4) {
    const std::uint8_t count = in.u8();
    if (count == 1) {
      const std::uint8_t tag = in.u8();
      const std::uint8_t size = in.u8();
      if (tag != 0 || size != 16 || !in.take(16)) return false;
      c.topic_id = in.p;
      in.advance(16);
    } else if (count != 0) {
      return false;
    }
  }
  return in.ok && in.left == 0;
}

}  // namespace kepoch
