// Pointers and memory: access chains compute per-lane byte offsets; loads and
// stores move a type's scalar leaves between registers and the addressed
// object, bounds-checked per lane, and are reported to observers (bank and
// coalescing models see the per-lane addresses).
#include <spirv/unified1/spirv.hpp11>

#include <bit>
#include <cstring>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;
using frontend::Leaf;
using frontend::extent;

void access_chain(Subgroup& sg, const Instruction& in) {
  const auto& chain = sg.program().chains[in.aux];
  const uint64_t* base = sg.slot(sg.operand(in, 0));
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) {
    int64_t offset = memory::pointer_offset(base[l]) + chain.constant_offset;
    for (const auto& index : chain.dynamic) {
      uint64_t raw = sg.slot(index.slot)[l];
      int64_t i = index.is_signed ? int64_t(int32_t(uint32_t(raw))) : int64_t(raw);
      offset += i * int64_t(index.stride_bytes);
    }
    d[l] = memory::make_pointer(memory::pointer_object(base[l]), offset);
  });
}

void notify(Subgroup& sg, const Instruction& in, const uint64_t* pointers, uint64_t bytes, bool is_store,
            LaneMask m) {
  ExecutionObserver* o = sg.observer();
  if (!o) return;
  uint64_t addresses[64];
  // The object a predicated store with no lane writing would have written:
  // its kind still says which pipe the instruction takes.
  const LaneMask active = sg.active();
  uint32_t object = active ? memory::pointer_object(pointers[std::countr_zero(active)]) : 0;
  for_each_lane(m, [&](uint32_t l) {
    addresses[l] = sg.observed_address(pointers[l]);
    object = memory::pointer_object(pointers[l]);
  });
  MemoryAccess access{sg.object(object).kind, is_store, false, uint32_t(bytes), m, addresses, object};
  o->on_memory(sg, in, access);
}

// A leaf's value, zero-extended: read at its own width, since copying its
// bytes into a zeroed 64-bit word and reading that back stalls the load on
// store forwarding (a third of an APSP prediction's time went there).
uint64_t read_leaf(const uint8_t* at, uint32_t bytes) {
  switch (bytes) {
    case 1: return *at;
    case 2: { uint16_t v; std::memcpy(&v, at, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, at, 4); return v; }
    case 8: { uint64_t v; std::memcpy(&v, at, 8); return v; }
    default: { uint64_t v = 0; std::memcpy(&v, at, bytes); return v; }
  }
}

void load(Subgroup& sg, const Instruction& in) {
  const auto& leaves = sg.program().leaf_lists[in.aux];
  const uint64_t* p = sg.slot(sg.operand(in, 0));
  const uint64_t bytes = extent(leaves);
  notify(sg, in, p, bytes, false, sg.active());
  for_active(sg, sg.active(), [&](uint32_t l) {
    const uint8_t* at = sg.address(in, p[l], l, bytes, false);
    for (const auto& leaf : leaves)
      sg.slot(in.result_slot + leaf.slot)[l] = read_leaf(at + leaf.byte_offset, leaf.bytes);
  });
}

void store_lanes(Subgroup& sg, const Instruction& in, LaneMask lanes) {
  const auto& leaves = sg.program().leaf_lists[in.aux];
  const uint64_t* p = sg.slot(sg.operand(in, 0));
  const uint32_t value = sg.operand(in, 1);
  const uint64_t bytes = extent(leaves);
  notify(sg, in, p, bytes, true, lanes);
  for_active(sg, lanes, [&](uint32_t l) {
    uint8_t* at = sg.address(in, p[l], l, bytes, true);
    for (const auto& leaf : leaves) {
      uint64_t v = sg.slot(value + leaf.slot)[l];
      std::memcpy(at + leaf.byte_offset, &v, leaf.bytes);
    }
  });
}

void store(Subgroup& sg, const Instruction& in) { store_lanes(sg, in, sg.active()); }

// A store of `condition ? value : the word as read` (module_decoder.cpp's
// write_back): the lanes that would write back the word they read do not
// write, as under a vendor compiler's predicated store. Operands: pointer,
// value, condition, and which condition writes.
void store_where(Subgroup& sg, const Instruction& in) {
  const uint64_t* condition = sg.slot(sg.operand(in, 2));
  const bool writes_when = sg.operand(in, 3) != 0;
  LaneMask writing = 0;
  for_each_lane(sg.active(), [&](uint32_t l) {
    if ((condition[l] != 0) == writes_when) writing |= LaneMask{1} << l;
  });
  store_lanes(sg, in, writing);
}

void copy_memory(Subgroup& sg, const Instruction& in) {
  const auto& leaves = sg.program().leaf_lists[in.aux];
  const uint64_t* to = sg.slot(sg.operand(in, 0));
  const uint64_t* from_p = sg.slot(sg.operand(in, 1));
  const uint64_t bytes = extent(leaves);
  notify(sg, in, from_p, bytes, false, sg.active());
  notify(sg, in, to, bytes, true, sg.active());
  for_active(sg, sg.active(), [&](uint32_t l) {
    std::memmove(sg.address(in, to[l], l, bytes, true), sg.address(in, from_p[l], l, bytes, false), bytes);
  });
}

// Runtime array length: (bound buffer size - member offset) / stride.
void array_length(Subgroup& sg, const Instruction& in) {
  const uint64_t* p = sg.slot(sg.operand(in, 0));
  const uint64_t offset = sg.operand(in, 1), stride = sg.operand(in, 2);
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) {
    uint64_t size = sg.object(memory::pointer_object(p[l])).size_bytes;
    d[l] = size > offset && stride ? (size - offset) / stride : 0;
  });
}

void nothing(Subgroup&, const Instruction&) {}

}  // namespace

frontend::Handler memory_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpAccessChain: case Op::OpInBoundsAccessChain: return access_chain;
    case Op::OpLoad: return load;
    case Op::OpStore: return in.operand_count == 4 ? store_where : store;
    case Op::OpCopyMemory: return copy_memory;
    case Op::OpArrayLength: return array_length;
    case Op::OpVariable: return nothing;  // its pointer is preloaded
    default: return nullptr;
  }
}

}  // namespace lanelab::core
