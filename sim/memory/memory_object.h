#pragma once
// Everything a pointer can point at: a bound buffer, the push-constant block,
// one shared (workgroup) variable, or one per-lane private variable. A pointer
// register holds (object index, byte offset), so every access is checked
// against the bounds of the very variable or buffer it addresses.
#include <cstdint>
#include <string>

#include "sim/frontend/program.h"

namespace lanelab::memory {

struct MemoryObject {
  frontend::MemoryKind kind = frontend::MemoryKind::Private;
  uint8_t* base = nullptr;          // shared by all lanes (buffers, shared memory)
  uint64_t size_bytes = 0;
  uint64_t offset_bytes = 0;        // shared: within workgroup memory; private: within a lane's area
  std::string name;                 // "buffer 'out' (set 0, binding 1)", "shared variable 'tile'"
  bool per_lane() const {
    return kind == frontend::MemoryKind::Private || kind == frontend::MemoryKind::Function ||
           kind == frontend::MemoryKind::Input;
  }
};

// Pointer register encoding: object index in the top 16 bits, a signed 48-bit
// byte offset below (so a negative index stays negative and is caught).
constexpr uint64_t make_pointer(uint32_t object, int64_t offset) {
  return (uint64_t(object) << 48) | (uint64_t(offset) & 0xFFFFFFFFFFFFull);
}
constexpr uint32_t pointer_object(uint64_t p) { return uint32_t(p >> 48); }
constexpr int64_t pointer_offset(uint64_t p) { return int64_t(p << 16) >> 16; }

}  // namespace lanelab::memory
