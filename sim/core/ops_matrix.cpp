// Matrix arithmetic (32-bit float). A matrix value is its columns one after
// another: element (column c, row r) lives in slot c * rows + r.
#include <spirv/unified1/spirv.hpp11>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

uint32_t columns(const Instruction& in) { return in.aux >> 8; }
uint32_t rows(const Instruction& in) { return in.aux & 0xff; }
float f(const Subgroup& sg, uint32_t slot, uint32_t lane) { return as<float>(sg.value(slot, lane)); }

void matrix_times_vector(Subgroup& sg, const Instruction& in) {
  const uint32_t m = sg.operand(in, 0), v = sg.operand(in, 1), cols = columns(in), rs = rows(in);
  for_active(sg, sg.active(), [&](uint32_t l) {
    for (uint32_t r = 0; r < rs; ++r) {
      float sum = 0;
      for (uint32_t c = 0; c < cols; ++c) sum += f(sg, m + c * rs + r, l) * f(sg, v + c, l);
      sg.slot(in.result_slot + r)[l] = from<float>(sum);
    }
  });
}

void vector_times_matrix(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0), m = sg.operand(in, 1), cols = columns(in), rs = rows(in);
  for_active(sg, sg.active(), [&](uint32_t l) {
    for (uint32_t c = 0; c < cols; ++c) {
      float sum = 0;
      for (uint32_t r = 0; r < rs; ++r) sum += f(sg, v + r, l) * f(sg, m + c * rs + r, l);
      sg.slot(in.result_slot + c)[l] = from<float>(sum);
    }
  });
}

void matrix_times_matrix(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1), inner = columns(in), rs = rows(in);
  const uint32_t result_columns = in.components / rs;
  for_active(sg, sg.active(), [&](uint32_t l) {
    for (uint32_t j = 0; j < result_columns; ++j)
      for (uint32_t r = 0; r < rs; ++r) {
        float sum = 0;
        for (uint32_t k = 0; k < inner; ++k) sum += f(sg, a + k * rs + r, l) * f(sg, b + j * inner + k, l);
        sg.slot(in.result_slot + j * rs + r)[l] = from<float>(sum);
      }
  });
}

void matrix_times_scalar(Subgroup& sg, const Instruction& in) {
  const uint32_t m = sg.operand(in, 0), s = sg.operand(in, 1);
  for_active(sg, sg.active(), [&](uint32_t l) {
    for (uint32_t i = 0; i < in.components; ++i)
      sg.slot(in.result_slot + i)[l] = from<float>(f(sg, m + i, l) * f(sg, s, l));
  });
}

void transpose(Subgroup& sg, const Instruction& in) {
  const uint32_t m = sg.operand(in, 0), cols = columns(in), rs = rows(in);
  for_active(sg, sg.active(), [&](uint32_t l) {
    for (uint32_t c = 0; c < cols; ++c)
      for (uint32_t r = 0; r < rs; ++r) sg.slot(in.result_slot + r * cols + c)[l] = sg.value(m + c * rs + r, l);
  });
}

}  // namespace

frontend::Handler matrix_handler(const frontend::Program&, const frontend::Instruction& in) {
  if (in.width_bits != 32) return nullptr;
  switch (spv::Op(in.opcode)) {
    case spv::Op::OpMatrixTimesVector: return matrix_times_vector;
    case spv::Op::OpVectorTimesMatrix: return vector_times_matrix;
    case spv::Op::OpMatrixTimesMatrix: return matrix_times_matrix;
    case spv::Op::OpMatrixTimesScalar: return matrix_times_scalar;
    case spv::Op::OpTranspose: return transpose;
    default: return nullptr;
  }
}

}  // namespace lanelab::core
