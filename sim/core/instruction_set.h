#pragma once
// Table-driven dispatch: each opcode family is a small handler (ops_*.cpp);
// this picks the handler for a decoded instruction, or nullptr when the
// executor does not support it (the decoder then refuses the module).
#include "sim/frontend/program.h"

namespace lanelab::core {

frontend::Handler select_handler(const frontend::Program& program, const frontend::Instruction& in);

// Handler families, each registering its opcodes (defined in ops_*.cpp).
frontend::Handler arithmetic_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler conversion_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler composite_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler memory_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler control_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler subgroup_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler atomic_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler matrix_handler(const frontend::Program&, const frontend::Instruction&);
frontend::Handler glsl_std450_handler(const frontend::Program&, const frontend::Instruction&);

}  // namespace lanelab::core
