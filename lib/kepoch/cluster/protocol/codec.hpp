#pragma once
// The generic codec: one encoder and one decoder for every message schema, doing what
// Kafka's generated write() and read() do (MessageDataGenerator) for a given version.
//
//   field            non-flexible version            flexible version
//   bool/intN/uintN  1/N/8 bytes big-endian          same
//   float64          8 bytes IEEE 754                same
//   uuid             16 bytes                        same
//   string           int16 length, -1 = null         uvarint (length + 1), 0 = null
//   bytes, records   int32 length, -1 = null         uvarint (length + 1), 0 = null
//   array            int32 count, -1 = null          uvarint (count + 1), 0 = null
//   nullable struct  int8 -1 = null, 1 = present     same (tagged: uvarint 0 / 1)
//   tagged fields    (none)                          uvarint count, then per field in tag
//                                                    order: uvarint tag, uvarint size, value
//
// Every struct of a flexible version ends with its tagged-field section. A field outside
// the version is not written and reads as its default; writing it with a non-default value
// throws (Kafka's UnsupportedVersionException) unless the field is ignorable. A tagged field
// is written only when it is not its default. Unknown tags are skipped on decode.
//
// Decoding is bounded: each length is checked against the bytes that remain before
// anything is allocated; a short frame, a bad length or varint, a tagged field that does not
// fill its declared size, or bytes after the message throw ProtocolError naming the
// message, the field path and the byte offset. Two checks are stricter than Kafka's
// generated readers, which no broker's output can trip: a known tagged field must fill
// exactly its declared size (Kafka reads the value and trusts the size), and a compact
// length must fit 32 bits (Kafka's int arithmetic turns 2^31 and above into "null").

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/schema.hpp"
#include "kepoch/cluster/protocol/value.hpp"
#include "kepoch/cluster/protocol/wire_reader.hpp"
#include "kepoch/cluster/protocol/wire_writer.hpp"

namespace kepoch::cluster::protocol {

// "MetadataResponse v12", the name errors give a message.
std::string message_label(const MessageSchema& schema, std::int16_t version);

// Appends the body to `out`. Throws ProtocolError for a version outside the schema's, a
// value of the wrong type, null where the version cannot carry null, a string over 32767
// bytes, or a non-default value of a non-ignorable field the version lacks.
void write_message(WireWriter& out, const MessageSchema& schema, std::int16_t version,
                   const Struct& body);
std::vector<std::uint8_t> encode_message(const MessageSchema& schema, std::int16_t version,
                                         const Struct& body);

// Reads one body from the reader's position (the reader's message name is set to the
// message's label). The caller decides whether bytes may follow.
Struct read_message(WireReader& in, const MessageSchema& schema, std::int16_t version);
// Decodes exactly `bytes`: anything left after the body is an error.
Struct decode_message(const MessageSchema& schema, std::int16_t version,
                      std::span<const std::uint8_t> bytes);

}  // namespace kepoch::cluster::protocol
