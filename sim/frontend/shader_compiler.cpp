#include "sim/frontend/shader_compiler.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "sim/common/error.h"
#include "sim/frontend/branch_flattening.h"
#include "sim/frontend/early_exit_sinking.h"
#include "sim/frontend/loop_invariant_hoisting.h"
#include "sim/frontend/partial_loop_unrolling.h"
#include "sim/frontend/private_vector_reads.h"
#include "sim/frontend/rolled_loops.h"
#include "sim/frontend/spirv_words.h"
#include "sim/frontend/subgroup_size_folding.h"

namespace lanelab::frontend {
namespace {

// SPIR-V 1.5 / Vulkan 1.2 is what glslang targets here: the first version where
// every subgroup operation the kernels use is core.
constexpr spv_target_env kDefaultEnv = SPV_ENV_VULKAN_1_2;

spv_target_env target_env(const std::string& name) {
  if (name.empty()) return kDefaultEnv;
  spv_target_env env;
  if (!spvParseTargetEnv(name.c_str(), &env)) throw Error("unknown TARGET_ENV '" + name + "'");
  return env;
}

void ensure_glslang_initialized() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

// Collects SPIRV-Tools diagnostics as "file:line: message" lines.
struct Diagnostics {
  std::string file;
  int first_line = 1;
  std::string text;
  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t, const char*, const spv_position_t& pos, const char* message) {
      if (!text.empty()) text += "\n";
      if (pos.line > 0 || pos.column > 0)
        text += file + ":" + std::to_string(pos.line + first_line) + ": ";
      text += message;
    };
  }
};

SpirvModule compile_glslang(const launch::ShaderDecl& shader, const std::string& entry_point) {
  ensure_glslang_initialized();
  const bool hlsl = shader.format == launch::ShaderFormat::Hlsl;
  // Blank lines before the text make glslang's line numbers (in messages and in
  // OpLine) the lines of the file the source sits in, e.g. an AmberScript file.
  std::string text(std::max(0, shader.first_line - 1), '\n');
  text += shader.text;
  const char* strings[] = {text.c_str()};
  const char* names[] = {shader.source_file.c_str()};

  glslang::TShader unit(EShLangCompute);
  unit.setStringsWithLengthsAndNames(strings, nullptr, names, 1);
  unit.setEntryPoint(entry_point.c_str());
  unit.setSourceEntryPoint(entry_point.c_str());
  unit.setEnvInput(hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl, EShLangCompute,
                   glslang::EShClientVulkan, 100);
  // glslang's HLSL front end still emits BufferBlock, which SPIR-V 1.4+
  // forbids: HLSL targets Vulkan 1.1 / SPIR-V 1.3 (still every subgroup op).
  unit.setEnvClient(glslang::EShClientVulkan, hlsl ? glslang::EShTargetVulkan_1_1 : glslang::EShTargetVulkan_1_2);
  unit.setEnvTarget(glslang::EShTargetSpv, hlsl ? glslang::EShTargetSpv_1_3 : glslang::EShTargetSpv_1_5);
  auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules | EShMsgDebugInfo |
                                           (hlsl ? int(EShMsgReadHlsl) : 0));
  if (!unit.parse(GetDefaultResources(), 450, false, messages))
    throw Error("compile failed:\n" + std::string(unit.getInfoLog()), {shader.source_file, 0});

  glslang::TProgram program;
  program.addShader(&unit);
  if (!program.link(messages)) throw Error("link failed:\n" + std::string(program.getInfoLog()), {shader.source_file, 0});

  glslang::SpvOptions options;
  options.generateDebugInfo = true;  // OpLine for every instruction: file:line in every message
  options.disableOptimizer = true;   // optimization is ours to choose (prepare_for_execution)
  spv::SpvBuildLogger logger;
  SpirvModule module;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), module.words, &logger, &options);
  module.source_file = shader.source_file;
  module.first_line = 1;
  return module;
}

void validate(const SpirvModule& module, spv_target_env env, const std::string& stage) {
  Diagnostics diag{module.source_file, module.first_line - 1, {}};
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer(diag.consumer());
  if (!tools.Validate(module.words))
    throw Error("SPIR-V validation failed" + stage + ": " + diag.text, {module.source_file, 0});
}

// The Vulkan environment matching the module's SPIR-V version.
spv_target_env env_for(const SpirvModule& module) {
  const uint32_t version = module.words.size() > 1 ? module.words[1] : 0;
  if (version >= 0x00010600) return SPV_ENV_VULKAN_1_3;
  if (version >= 0x00010400) return SPV_ENV_VULKAN_1_2;
  if (version >= 0x00010300) return SPV_ENV_VULKAN_1_1;
  return SPV_ENV_VULKAN_1_0;
}

}  // namespace

SpirvModule compile_to_spirv(const launch::ShaderDecl& shader, const std::string& entry_point) {
  SpirvModule module;
  spv_target_env env = target_env(shader.target_env);
  switch (shader.format) {
    case launch::ShaderFormat::Glsl:
    case launch::ShaderFormat::Hlsl:
      module = compile_glslang(shader, entry_point);
      break;
    case launch::ShaderFormat::SpirvAsm: {
      Diagnostics diag{shader.source_file, shader.first_line - 1, {}};
      spvtools::SpirvTools tools(env);
      tools.SetMessageConsumer(diag.consumer());
      if (!tools.Assemble(shader.text, &module.words))
        throw Error("SPIR-V assembly failed: " + diag.text, {shader.source_file, shader.first_line});
      module.source_file = shader.source_file;
      module.first_line = shader.first_line;
      break;
    }
    case launch::ShaderFormat::SpirvHex:
    case launch::ShaderFormat::SpirvBin:
      module.words = shader.words;
      module.source_file = shader.source_file;
      if (module.words.size() < 5 || module.words[0] != 0x07230203)
        throw Error("not a SPIR-V module (bad magic number or too short)", {shader.source_file, shader.first_line});
      break;
  }
  if (shader.target_env.empty()) env = env_for(module);
  validate(module, env, "");
  return module;
}

namespace {
constexpr size_t kMaxUnrolledWords = 1 << 17;
// How many trips of a loop whose trip count only the run knows a vendor
// compiler puts in one: the H100's driver keeps four loads a lane in flight
// in the reductions' second pass (partial_loop_unrolling.h).
constexpr uint32_t kRuntimeUnrollFactor = 4;
// Flattening passes over a module: each can only remove selections, so this
// bounds the work, not the result (kernels settle in two).
constexpr uint32_t kMaxFlatteningRounds = 4;
}  // namespace

SpirvModule prepare_for_execution(const SpirvModule& module, const CompileOptions& options) {
  spv_target_env env = env_for(module);
  spvtools::Optimizer optimizer(env);
  Diagnostics diag{module.source_file, module.first_line - 1, {}};
  optimizer.SetMessageConsumer(diag.consumer());

  // What a driver does at pipeline creation: fix the specialization constants,
  // then fold everything computed from them (gl_WorkGroupSize among others).
  std::unordered_map<uint32_t, std::vector<uint32_t>> spec_values;
  for (const auto& s : options.specializations) spec_values[s.id] = {s.bits};
  optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec_values));
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  optimizer.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  // The executor runs one function: calls are inlined as every GPU compiler does.
  optimizer.RegisterPass(spvtools::CreateInlineExhaustivePass());
  optimizer.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  if (options.optimize) optimizer.RegisterPerformancePasses();

  SpirvModule prepared = module;
  prepared.words.clear();
  spvtools::ValidatorOptions validator_options;
  if (!optimizer.Run(module.words.data(), module.words.size(), &prepared.words, validator_options, false))
    throw Error("SPIR-V optimization failed: " + diag.text, {module.source_file, 0});
  // The performance passes again over what a pass of ours rewrote: they
  // propagate what it folded, merge the blocks it joined.
  auto optimize_again = [&](const std::vector<uint32_t>& rewritten, const std::string& after) {
    spvtools::Optimizer again(env);
    again.SetMessageConsumer(diag.consumer());
    again.RegisterPerformancePasses();
    if (!again.Run(rewritten.data(), rewritten.size(), &prepared.words, validator_options, false))
      throw Error("SPIR-V optimization after " + after + " failed: " + diag.text, {module.source_file, 0});
  };
  if (options.optimize && options.known_subgroup_size > 0) {
    const SubgroupFoldingResult folded = fold_subgroup_size(prepared.words, options.known_subgroup_size);
    if (folded.folded > 0) optimize_again(folded.words, "subgroup-size folding");
  }
  if (options.optimize && options.unroll_loops) {
    // spirv-opt unrolls only loops that ask for it: ask for every loop that
    // has not asked not to be and that a vendor compiler would unroll fully
    // (rolled_loops.h); the pass leaves those it cannot fully unroll (a trip
    // count known only at run time) as they are. Those and the loops a
    // vendor compiler keeps a few steps a trip are then unrolled so
    // (partial_loop_unrolling.h).
    std::vector<uint32_t>& words = prepared.words;
    const std::unordered_map<uint32_t, uint32_t> rolled = loops_kept_rolled(words);
    uint32_t block = 0;
    for (size_t i = 5; i < words.size();) {
      const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
      if (count == 0) break;
      if (opcode == uint32_t(spv::Op::OpLabel)) block = words[i + 1];
      if (opcode == uint32_t(spv::Op::OpLoopMerge) && count >= 4 && !rolled.count(block) &&
          !(words[i + 3] & uint32_t(spv::LoopControlMask::DontUnroll)))
        words[i + 3] |= uint32_t(spv::LoopControlMask::Unroll);
      i += count;
    }
    spvtools::Optimizer unroller(env);
    unroller.SetMessageConsumer(diag.consumer());
    unroller.RegisterPass(spvtools::CreateLoopUnrollPass(true));
    unroller.RegisterPerformancePasses();
    std::vector<uint32_t> unrolled;
    if (!unroller.Run(words.data(), words.size(), &unrolled, validator_options, false))
      throw Error("SPIR-V loop unrolling failed: " + diag.text, {module.source_file, 0});
    // A loop of thousands of trips (a microbenchmark's) is unrolled only a
    // few times by a vendor compiler, its bookkeeping then negligible: such a
    // module keeps its loops.
    if (unrolled.size() <= kMaxUnrolledWords) words = std::move(unrolled);
    const PartialUnrollingResult partly = unroll_loops_partly(words, kRuntimeUnrollFactor, rolled);
    if (partly.unrolled > 0) optimize_again(partly.words, "partial loop unrolling");
  }
  if (options.optimize && options.flatten_branches_up_to > 0) {
    const PrivateVectorReadsResult reads = extract_private_vector_reads(prepared.words);
    if (reads.rewritten > 0) optimize_again(reads.words, "private-vector reads");
    // Merged with what followed its selection, a header is one block that
    // holds what the GPU issues without a branch. Again while that flattens
    // more: a private array written on both sides of a flattened selection
    // becomes registers, and the selections that read it may then qualify.
    for (uint32_t round = 0; round < kMaxFlatteningRounds; ++round) {
      const FlatteningResult flat = flatten_short_branches(prepared.words, options.flatten_branches_up_to);
      if (flat.flattened == 0) break;
      optimize_again(flat.words, "branch flattening");
    }
  }
  if (options.optimize && options.hoist_loop_invariants) {
    const HoistingResult hoisted = hoist_loop_invariants(prepared.words);
    if (hoisted.input_loads + hoisted.hoisted > 0) optimize_again(hoisted.words, "loop-invariant hoisting");
    // Last: the hoisting above reads the builtins at the function's start,
    // and what only the far side of an early exit uses goes there.
    SinkingResult sunk = sink_past_early_exits(prepared.words);
    if (sunk.sunk > 0) prepared.words = std::move(sunk.words);
  }
  validate(prepared, env, " after specialization/optimization");
  return prepared;
}

std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(kDefaultEnv);
  std::string text;
  tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  return text;
}

}  // namespace lanelab::frontend
