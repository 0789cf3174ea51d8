#include "sim/core/dispatch.h"

#include "sim/common/error.h"
#include "sim/core/workgroup.h"

namespace lanelab::core {

using frontend::MemoryKind;

DispatchContext make_dispatch(const frontend::Program& program, uint32_t subgroup_width,
                              std::array<uint32_t, 3> workgroups, const std::vector<BoundBuffer>& buffers) {
  // Any width up to the 64-bit lane mask: real devices use powers of two,
  // the lecture's teaching machine has 9 register lanes.
  if (subgroup_width == 0 || subgroup_width > 64)
    throw Error("subgroup size must be from 1 to 64 lanes, not " + std::to_string(subgroup_width));
  DispatchContext d;
  d.program = &program;
  d.subgroup_width = subgroup_width;
  d.workgroups = workgroups;
  for (const auto& v : program.variables) {
    memory::MemoryObject o;
    o.kind = v.memory;
    o.offset_bytes = v.offset_bytes;
    o.size_bytes = program.type(v.type).size_bytes;
    switch (v.memory) {
      case MemoryKind::StorageBuffer: case MemoryKind::UniformBuffer: case MemoryKind::PushConstant: {
        const BoundBuffer* found = nullptr;
        for (const auto& b : buffers)
          if (v.memory == MemoryKind::PushConstant ? b.push_constant
                                                   : (!b.push_constant && b.set == v.set && b.binding == v.binding))
            found = &b;
        std::string what = v.memory == MemoryKind::PushConstant
                               ? "push constants '" + v.name + "'"
                               : "buffer '" + v.name + "' (set " + std::to_string(v.set) + ", binding " +
                                     std::to_string(v.binding) + ")";
        if (!found) throw Error("no buffer bound for " + what);
        o.base = found->data;
        o.size_bytes = found->size_bytes;
        o.name = what + (found->name.empty() ? "" : " = '" + found->name + "'");
        // A fixed-size block must fit in what the host bound.
        const auto& t = program.type(v.type);
        bool runtime_sized = t.kind == frontend::Type::Kind::Struct && !t.members.empty() &&
                             program.type(t.members.back()).kind == frontend::Type::Kind::RuntimeArray;
        if (!runtime_sized && found->size_bytes < t.size_bytes && v.memory != MemoryKind::PushConstant)
          throw Error(what + " needs " + std::to_string(t.size_bytes) + " bytes but the bound buffer has " +
                      std::to_string(found->size_bytes));
        break;
      }
      case MemoryKind::Workgroup: o.name = "shared variable '" + v.name + "'"; break;
      case MemoryKind::Opaque:
        o.name = "image/sampler '" + v.name + "'";
        o.size_bytes = 0;  // never bound: any access through it is refused
        break;
      default: o.name = "variable '" + v.name + "'"; break;
    }
    d.objects.push_back(o);
  }
  return d;
}

void run_dispatch(const DispatchContext& dispatch) {
  for (uint32_t z = 0; z < dispatch.workgroups[2]; ++z)
    for (uint32_t y = 0; y < dispatch.workgroups[1]; ++y)
      for (uint32_t x = 0; x < dispatch.workgroups[0]; ++x) {
        Workgroup wg(dispatch, {x, y, z});
        wg.run();
      }
}

}  // namespace lanelab::core
