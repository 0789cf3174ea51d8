#include "sim/core/instruction_set.h"

namespace lanelab::core {

frontend::Handler select_handler(const frontend::Program& program, const frontend::Instruction& in) {
  using Family = frontend::Handler (*)(const frontend::Program&, const frontend::Instruction&);
  static constexpr Family kFamilies[] = {control_handler,  memory_handler,   arithmetic_handler,
                                         conversion_handler, composite_handler, subgroup_handler,
                                         atomic_handler,   matrix_handler,    glsl_std450_handler};
  for (Family family : kFamilies)
    if (auto h = family(program, in)) return h;
  return nullptr;
}

}  // namespace lanelab::core
