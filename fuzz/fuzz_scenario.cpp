// libFuzzer target: `simulate` scenarios (YAML), parsed and validated.
#include <cstddef>
#include <cstdint>
#include <string>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/sim/scenario_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    kepoch::sim::parse_scenario(std::string(reinterpret_cast<const char*>(data), size),
                                "fuzz.yaml");
  } catch (const kepoch::InputError&) {
  } catch (const kepoch::FormatError&) {
  }
  return 0;
}
