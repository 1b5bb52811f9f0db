#pragma once
// A coordinator record's YAML written by straight-line code, the text the schema walk's
// YamlBlockSink writes for it (segment_report.cpp): an OffsetCommit read plainly
// (read_plain_offset_commit) whole, and any other record's head (its type, type id and
// "key"), its usual key, and a null value or one of scalars, as lines rendered once per
// record type and column. Not part of the library's interface.

#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/coordinator_write.hpp"
#include "kepoch/format/offset_commit_fast.hpp"
#include "kepoch/report/object_writer.hpp"
#include "kepoch/report/yaml_emitter.hpp"

namespace kepoch::report::detail {

// The record `c` as the value of the current map's key (e.at_map_value()): its map, the
// bytes the block calls write for it (YamlBlockSink through write_unchecked_coordinator).
// False, having written nothing, where its lines do not fit the rendered ones (a deep
// column): the caller takes the walk.
bool emit_offset_commit_yaml(YamlEmitter& e, const PlainOffsetCommit& c, LazyTimes times);

// What begin_coordinator_yaml wrote of the record: nothing (the caller makes the calls);
// its map begun, its "type", "type_id" and the key "key" (the key's value next, by the
// calls); its key's value, "value_version" and the key "value" too (the value next, by the
// calls; the map's end by block_end); or the whole record (its value null, or read here).
enum class YamlHead { none, key_next, value_next, whole };

// The record's first members as the value of the current map's key (e.at_map_value()), as
// write_unchecked_coordinator's calls through YamlBlockSink write them, as lines made once
// per record type and column: none where the type's name is not written as it is or its
// lines do not fit; its key, and its value when null or of scalars, too when their fields
// are read here as the strict walk reads them (TypeLines and read_value, .cpp).
YamlHead begin_coordinator_yaml(YamlEmitter& e, const CheckedCoordinatorRecord& r, LazyTimes times);

}  // namespace kepoch::report::detail
