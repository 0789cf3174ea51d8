#pragma once
// Turns a kernel source (GLSL, HLSL, SPIR-V assembly, SPIR-V binary) into a
// validated SPIR-V module: glslang compiles in-process with debug info (OpLine),
// SPIRV-Tools validates, applies specialization constants and, unless asked
// not to, runs the performance passes a driver's compiler would.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/launch/amber_script.h"

namespace lanelab::frontend {

struct CompileOptions {
  std::string entry_point = "main";
  std::vector<launch::Specialization> specializations;
  bool optimize = true;            // --no-opt runs the module as written
  // Fully unroll every loop whose trip count is a constant, as vendor
  // compilers do to such loops (then scalarize what the unrolling made
  // constant-indexed), but those they keep rolled (rolled_loops.h): the
  // timing model counts the instructions the GPU issues, not the loop
  // bookkeeping SPIR-V spells out. Needs `optimize`.
  bool unroll_loops = false;
  // After unrolling, predicate every selection whose sides only compute, in
  // at most this many instructions each (branch_flattening.h); 0 keeps every
  // branch. Needs `optimize`.
  uint32_t flatten_branches_up_to = 0;
  // The subgroup size the pipeline runs at, as a driver knows it:
  // gl_SubgroupSize becomes that constant (subgroup_size_folding.h). 0: not
  // known. Needs `optimize`.
  uint32_t known_subgroup_size = 0;
  // After flattening, read the inputs once at the start and move what a loop
  // computes from values defined outside it out of the loop, as every GPU
  // compiler does (loop_invariant_hoisting.h), and move what only the far
  // side of an early exit uses past it (early_exit_sinking.h). Needs
  // `optimize`.
  bool hoist_loop_invariants = false;
};

struct SpirvModule {
  std::vector<uint32_t> words;
  std::string source_file;         // for messages
  int first_line = 1;              // line offset of the source inside source_file
};

// Source to SPIR-V, validated, without specialization or optimization: this is
// what a Vulkan driver receives.
SpirvModule compile_to_spirv(const launch::ShaderDecl& shader, const std::string& entry_point = "main");

// What the simulator executes: specialization constants frozen, functions
// inlined, optionally optimized, validated again.
SpirvModule prepare_for_execution(const SpirvModule& module, const CompileOptions& options);

std::string disassemble(const std::vector<uint32_t>& words);

}  // namespace lanelab::frontend
