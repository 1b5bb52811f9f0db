#include "kepoch/cluster/protocol/schema.hpp"

namespace kepoch::cluster::protocol {

std::string_view field_type_name(FieldType type) {
  switch (type) {
    case FieldType::kBool:
      return "bool";
    case FieldType::kInt8:
      return "int8";
    case FieldType::kInt16:
      return "int16";
    case FieldType::kUint16:
      return "uint16";
    case FieldType::kInt32:
      return "int32";
    case FieldType::kUint32:
      return "uint32";
    case FieldType::kInt64:
      return "int64";
    case FieldType::kFloat64:
      return "float64";
    case FieldType::kUuid:
      return "uuid";
    case FieldType::kString:
      return "string";
    case FieldType::kBytes:
      return "bytes";
    case FieldType::kRecords:
      return "records";
    case FieldType::kStruct:
      return "struct";
    case FieldType::kArray:
      return "array";
  }
  return "?";
}

}  // namespace kepoch::cluster::protocol
