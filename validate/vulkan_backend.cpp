#include "validate/vulkan_backend.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <set>
#include <utility>
#include <variant>

#include "sim/common/error.h"
#include "sim/frontend/shader_compiler.h"

namespace lanelab::validate {

using launch::BindingKind;
using launch::BufferData;
using launch::PipelineDecl;
using launch::RunCommand;
using launch::Script;

namespace {

// How long a submission may run before lanelab gives up on the GPU.
constexpr uint64_t kFenceTimeoutNs = 300'000'000'000ull;

// A device-level Vulkan object destroyed with its owner.
template <class Handle, class Destroy>
class Owned {
 public:
  Owned(VkDevice device, Destroy destroy) : device_(device), destroy_(destroy) {}
  ~Owned() { reset(); }
  Owned(Owned&& other) noexcept
      : device_(other.device_), destroy_(other.destroy_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  Owned& operator=(Owned&&) = delete;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  Handle* out() { return &handle_; }
  Handle get() const { return handle_; }
  void reset() {
    if (handle_) destroy_(device_, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  VkDevice device_;
  Destroy destroy_;
  Handle handle_ = VK_NULL_HANDLE;
};

using OwnedBuffer = Owned<VkBuffer, PFN_vkDestroyBuffer>;
using OwnedMemory = Owned<VkDeviceMemory, PFN_vkFreeMemory>;
using OwnedSetLayout = Owned<VkDescriptorSetLayout, PFN_vkDestroyDescriptorSetLayout>;
using OwnedPipelineLayout = Owned<VkPipelineLayout, PFN_vkDestroyPipelineLayout>;
using OwnedPipeline = Owned<VkPipeline, PFN_vkDestroyPipeline>;
using OwnedShaderModule = Owned<VkShaderModule, PFN_vkDestroyShaderModule>;
using OwnedDescriptorPool = Owned<VkDescriptorPool, PFN_vkDestroyDescriptorPool>;
using OwnedCommandPool = Owned<VkCommandPool, PFN_vkDestroyCommandPool>;
using OwnedQueryPool = Owned<VkQueryPool, PFN_vkDestroyQueryPool>;
using OwnedFence = Owned<VkFence, PFN_vkDestroyFence>;

// A compute pipeline with the layouts it was built against.
struct Pipeline {
  std::vector<OwnedSetLayout> set_layouts;  // index = descriptor set number
  OwnedPipelineLayout layout;
  OwnedPipeline pipeline;
  uint32_t push_constant_bytes = 0;
};

struct DeviceBuffer {
  OwnedBuffer buffer;
  OwnedMemory memory;
  VkDeviceSize size = 0;
};

std::string word_bytes(const std::vector<uint32_t>& words) {
  return std::string(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
}

// Push constants are pushed in whole 32-bit words.
uint32_t push_constant_size(const BufferData& data) { return uint32_t((data.bytes.size() + 3) / 4 * 4); }

Place place_of(const Script& script, int line) { return Place{script.path, line}; }

// A script of one GLSL kernel, for the runner's own dispatches (the launch
// overhead, the preheat), its pipeline named as the kernel.
Script single_kernel_script(const std::string& name, const std::string& glsl,
                            std::vector<launch::BufferBinding> bindings = {}) {
  Script script;
  script.path = "<" + name + ">";
  launch::ShaderDecl shader;
  shader.name = name;
  shader.format = launch::ShaderFormat::Glsl;
  shader.text = glsl;
  shader.source_file = script.path;
  script.shaders.push_back(shader);
  PipelineDecl decl;
  decl.name = decl.shader = name;
  decl.bindings = std::move(bindings);
  script.pipelines.push_back(decl);
  return script;
}

}  // namespace

struct VulkanBackend::Impl {
  VulkanContext context;
  std::optional<uint32_t> required_subgroup_size;
  std::map<std::string, std::vector<uint32_t>> spirv_cache;        // shader source -> SPIR-V
  std::map<std::string, std::unique_ptr<Pipeline>> pipeline_cache;  // everything a pipeline depends on

  GpuClocks clocks;
  std::optional<ClockReading> clocks_before;  // after the last preheat
  std::optional<ClockReading> last_clocks;    // after the last timed submission
  Script heater;                            // the busy kernel of preheat()

  explicit Impl(const std::string& selector) : context(selector), clocks(context.facts().name) {}

  const VulkanFunctions& vk() const { return context.vk(); }
  VkDevice device() const { return context.device(); }

  const std::vector<uint32_t>& spirv(const launch::ShaderDecl& shader, const std::string& entry_point) {
    std::string key = std::to_string(int(shader.format)) + '\0' + shader.name + '\0' + shader.text + '\0' +
                      word_bytes(shader.words) + '\0' + shader.source_file + '\0' +
                      std::to_string(shader.first_line) + '\0' + shader.target_env + '\0' + entry_point;
    auto it = spirv_cache.find(key);
    if (it == spirv_cache.end())
      it = spirv_cache.emplace(key, frontend::compile_to_spirv(shader, entry_point).words).first;
    return it->second;
  }

  // The subgroup-size request for a pipeline, or nullptr when none is needed;
  // throws when the device cannot promise the size.
  const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo* subgroup_size_request(
      const Script& script, const PipelineDecl& decl, VkPipelineShaderStageRequiredSubgroupSizeCreateInfo& info) {
    if (!required_subgroup_size) return nullptr;
    const uint32_t lanes = *required_subgroup_size;
    const VulkanDeviceFacts& f = context.facts();
    const bool controllable = f.subgroup_size_control && f.required_subgroup_size_in_compute &&
                              std::has_single_bit(lanes) && lanes >= f.min_subgroup_size &&
                              lanes <= f.max_subgroup_size;
    const bool fixed = f.min_subgroup_size == lanes && f.max_subgroup_size == lanes;
    if (!controllable && !fixed) {
      std::string range = f.min_subgroup_size ? std::to_string(f.min_subgroup_size) + ".." +
                                                    std::to_string(f.max_subgroup_size)
                                              : "an unreported range (default " + std::to_string(f.subgroup_size) + ")";
      throw Error("kernel '" + decl.name + "' (shader '" + decl.shader + "') needs subgroup size " +
                      std::to_string(lanes) + ", but Vulkan device '" + f.name + "' runs compute subgroups of " +
                      range + (f.subgroup_size_control ? "" : " and cannot be asked for one size"),
                  place_of(script, decl.line));
    }
    if (!controllable) return nullptr;  // the only size the device has
    info = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    info.requiredSubgroupSize = lanes;
    return &info;
  }

  // Builds (once) the pipeline for `decl`; `buffers` give push-constant sizes.
  Pipeline& pipeline(const Script& script, const PipelineDecl& decl, const std::map<std::string, BufferData>& buffers) {
    const Place place = place_of(script, decl.line);
    const std::vector<uint32_t>& words = spirv(script.shader(decl.shader), decl.entry_point);

    // Layout: storage / uniform descriptors by set and binding, one push-constant range.
    std::map<uint32_t, std::map<uint32_t, BindingKind>> sets;
    std::optional<uint32_t> push_bytes;
    for (const auto& b : decl.bindings) {
      if (b.kind == BindingKind::PushConstant) {
        if (push_bytes) throw Error("pipeline '" + decl.name + "' binds two push-constant buffers", place);
        auto it = buffers.find(b.buffer);
        if (it == buffers.end()) throw Error("pipeline '" + decl.name + "' binds unknown buffer '" + b.buffer + "'", place);
        push_bytes = push_constant_size(it->second);
        if (*push_bytes > context.facts().max_push_constants_bytes) {
          throw Error("push-constant buffer '" + b.buffer + "' has " + std::to_string(*push_bytes) +
                          " bytes; Vulkan device '" + context.facts().name + "' allows " +
                          std::to_string(context.facts().max_push_constants_bytes),
                      place);
        }
        continue;
      }
      if (!sets[b.set].emplace(b.binding, b.kind).second) {
        throw Error("pipeline '" + decl.name + "' binds two buffers at descriptor set " + std::to_string(b.set) +
                        " binding " + std::to_string(b.binding),
                    place);
      }
    }

    std::string key = word_bytes(words) + '\0' + decl.entry_point + '\0';
    for (const auto& s : decl.specializations) key += std::to_string(s.id) + "=" + std::to_string(s.bits) + ",";
    for (const auto& [set, bindings] : sets)
      for (const auto& [binding, kind] : bindings)
        key += std::to_string(set) + "." + std::to_string(binding) + ":" + std::to_string(int(kind)) + ",";
    key += "push=" + std::to_string(push_bytes.value_or(0));
    key += ",subgroup=" + std::to_string(required_subgroup_size.value_or(0));
    if (auto it = pipeline_cache.find(key); it != pipeline_cache.end()) return *it->second;

    const VulkanFunctions& vk = this->vk();
    auto p = std::make_unique<Pipeline>(Pipeline{
        {}, OwnedPipelineLayout(device(), vk.vkDestroyPipelineLayout), OwnedPipeline(device(), vk.vkDestroyPipeline)});
    const uint32_t set_count = sets.empty() ? 0 : sets.rbegin()->first + 1;
    for (uint32_t set = 0; set < set_count; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
      for (const auto& [binding, kind] : sets[set]) {
        VkDescriptorSetLayoutBinding lb{};
        lb.binding = binding;
        lb.descriptorType =
            kind == BindingKind::Uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        lb.descriptorCount = 1;
        lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        layout_bindings.push_back(lb);
      }
      VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      info.bindingCount = uint32_t(layout_bindings.size());
      info.pBindings = layout_bindings.data();
      p->set_layouts.emplace_back(device(), vk.vkDestroyDescriptorSetLayout);
      vk_check(vk.vkCreateDescriptorSetLayout(device(), &info, nullptr, p->set_layouts.back().out()),
               "vkCreateDescriptorSetLayout");
    }
    std::vector<VkDescriptorSetLayout> layouts;
    for (const auto& l : p->set_layouts) layouts.push_back(l.get());
    VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes.value_or(0)};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = uint32_t(layouts.size());
    layout_info.pSetLayouts = layouts.data();
    layout_info.pushConstantRangeCount = push_bytes.value_or(0) > 0 ? 1 : 0;
    layout_info.pPushConstantRanges = &push_range;
    vk_check(vk.vkCreatePipelineLayout(device(), &layout_info, nullptr, p->layout.out()), "vkCreatePipelineLayout");
    p->push_constant_bytes = push_bytes.value_or(0);

    OwnedShaderModule module(device(), vk.vkDestroyShaderModule);
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    vk_check(vk.vkCreateShaderModule(device(), &module_info, nullptr, module.out()), "vkCreateShaderModule");

    // Specialization constants: each a 32-bit value, laid out in declaration order.
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    for (const auto& s : decl.specializations) {
      entries.push_back({s.id, uint32_t(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
      values.push_back(s.bits);
    }
    VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), values.size() * sizeof(uint32_t),
                                        values.data()};

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo size_info{};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.pNext = subgroup_size_request(script, decl, size_info);
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.get();
    info.stage.pName = decl.entry_point.c_str();
    info.stage.pSpecializationInfo = entries.empty() ? nullptr : &specialization;
    info.layout = p->layout.get();
    if (context.facts().pipeline_executable_properties) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkResult result = vk.vkCreateComputePipelines(device(), VK_NULL_HANDLE, 1, &info, nullptr, p->pipeline.out());
    if (result != VK_SUCCESS) {
      throw Error("vkCreateComputePipelines failed for pipeline '" + decl.name + "': " + vk_result_name(result), place);
    }
    return *pipeline_cache.emplace(key, std::move(p)).first->second;
  }

  uint32_t memory_type(uint32_t allowed, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const {
    const auto& props = context.memory_properties();
    for (VkMemoryPropertyFlags want : {required | preferred, required}) {
      for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
    }
    throw Error("Vulkan device '" + context.facts().name + "' has no suitable memory type");
  }

  DeviceBuffer create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                             VkMemoryPropertyFlags preferred, const std::string& what) {
    const VulkanFunctions& vk = this->vk();
    DeviceBuffer b{OwnedBuffer(device(), vk.vkDestroyBuffer), OwnedMemory(device(), vk.vkFreeMemory), size};
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    vk_check(vk.vkCreateBuffer(device(), &info, nullptr, b.buffer.out()), ("vkCreateBuffer (" + what + ")").c_str());
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(device(), b.buffer.get(), &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = memory_type(req.memoryTypeBits, required, preferred);
    vk_check(vk.vkAllocateMemory(device(), &alloc, nullptr, b.memory.out()),
             ("vkAllocateMemory (" + what + ", " + std::to_string(size) + " bytes)").c_str());
    vk_check(vk.vkBindBufferMemory(device(), b.buffer.get(), b.memory.get(), 0), "vkBindBufferMemory");
    return b;
  }

  // Keeps every SM busy for at least `ms` of wall time and, where NVML reads
  // the clock, until the SM clock has reached 97% of its maximum (at most
  // kPreheatLimitMs): the driver raises the clock over up to a few seconds of
  // load and drops it again within a second of idling. Submissions of 64
  // launches of a dependent FMA chain, one full wave of workgroups each; the
  // caller submits its timed work right after the last one.
  void preheat(double ms) {
    constexpr double kPreheatLimitMs = 5000;
    if (ms <= 0 || context.facts().device_type == "CPU") return;
    if (heater.shaders.empty()) {
      heater = single_kernel_script("preheat",
                                    "#version 450\nlayout(local_size_x = 256) in;\n"
                                    "layout(set = 0, binding = 0) buffer Sink { float sink[]; };\n"
                                    "void main() {\n  float x = float(gl_GlobalInvocationID.x);\n"
                                    "  for (int i = 0; i < 16384; ++i) x = x * 0.999 + 0.5;\n"
                                    "  if (x == 1234.5) sink[gl_GlobalInvocationID.x & 255u] = x;\n}\n",
                                    {{"sink", BindingKind::Storage, 0, 0}});
      BufferData sink;
      sink.name = "sink";
      sink.bytes.assign(1024, 0);
      heater.buffers["sink"] = sink;
    }
    auto cold = [&] {
      const std::optional<ClockReading> now = clocks.read();
      return now && now->sm_mhz < 0.97 * now->max_sm_mhz;
    };
    RunCommand launch;
    launch.pipeline = "preheat";
    launch.groups[0] = 1024;
    const std::vector<RunCommand> sequence(64, launch);
    const std::vector<const PipelineDecl*> decls(sequence.size(), &heater.pipelines.front());
    std::map<std::string, BufferData> buffers = heater.buffers;
    const auto started = std::chrono::steady_clock::now();
    auto elapsed_ms = [&] {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    };
    do {
      run(heater, decls, sequence, buffers, 0, 1, false);
    } while (elapsed_ms() < ms || (cold() && elapsed_ms() < kPreheatLimitMs));
    clocks_before = clocks.read();
  }

  // Runs `sequence` (dispatch i of pipeline decls[i]), warmup + repeats times,
  // on device copies of `buffers`; returns the raw timestamps of the timed
  // repeats, two per dispatch, when `timed`.
  std::vector<uint64_t> run(const Script& script, const std::vector<const PipelineDecl*>& decls,
                            const std::vector<RunCommand>& sequence, std::map<std::string, BufferData>& buffers,
                            uint32_t warmup, uint32_t repeats, bool timed, double preheat_ms = 0,
                            const std::vector<std::string>& push_sources = {}) {
    const VulkanFunctions& vk = this->vk();
    const VulkanDeviceFacts& facts = context.facts();
    if (sequence.empty()) throw Error("no dispatches to run", place_of(script, 0));
    if (timed && facts.timestamp_valid_bits == 0) {
      throw Error("Vulkan device '" + facts.name + "' has no timestamps on its compute queue");
    }

    // Pipelines and the buffers they bind.
    std::vector<Pipeline*> pipelines;
    std::map<std::string, const BufferData*> bound;  // storage and uniform, by name
    for (size_t i = 0; i < sequence.size(); ++i) {
      const PipelineDecl& decl = *decls[i];
      const RunCommand& command = sequence[i];
      for (int axis = 0; axis < 3; ++axis) {
        if (command.groups[axis] > facts.max_workgroup_count[axis]) {
          throw Error("RUN " + decl.name + ": " + std::to_string(command.groups[axis]) +
                          " workgroups exceed Vulkan device '" + facts.name + "''s limit of " +
                          std::to_string(facts.max_workgroup_count[axis]),
                      place_of(script, command.line));
        }
      }
      for (const auto& b : decl.bindings) {
        auto it = buffers.find(b.buffer);
        if (it == buffers.end()) {
          throw Error("pipeline '" + decl.name + "' binds unknown buffer '" + b.buffer + "'",
                      place_of(script, decl.line));
        }
        if (it->second.bytes.empty()) {
          throw Error("pipeline '" + decl.name + "' binds empty buffer '" + b.buffer + "'", place_of(script, decl.line));
        }
        if (b.kind != BindingKind::PushConstant) bound[b.buffer] = &it->second;
      }
      pipelines.push_back(&pipeline(script, decl, buffers));
    }

    // Device-local copies, filled from and read back through one host-visible staging buffer.
    std::map<std::string, DeviceBuffer> device_buffers;
    std::map<std::string, VkDeviceSize> staging_offset;
    VkDeviceSize staging_size = 0;
    for (const auto& [name, data] : bound) {
      const VkDeviceSize size = (data->bytes.size() + 3) / 4 * 4;
      device_buffers.emplace(name, create_buffer(size,
                                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, "buffer '" + name + "'"));
      staging_offset[name] = staging_size;
      staging_size += size;
    }
    std::optional<DeviceBuffer> staging;
    if (staging_size > 0) {
      staging.emplace(create_buffer(staging_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                    VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "staging"));
    }
    void* mapped = nullptr;
    if (staging) {
      vk_check(vk.vkMapMemory(device(), staging->memory.get(), 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
      for (const auto& [name, data] : bound)
        std::memcpy(static_cast<uint8_t*>(mapped) + staging_offset[name], data->bytes.data(), data->bytes.size());
    }

    // Descriptor sets: one group per dispatch of the sequence, reused by every repeat.
    uint32_t storage_count = 0, uniform_count = 0, set_count = 0;
    for (const auto* decl : decls) {
      for (const auto& b : decl->bindings) {
        storage_count += b.kind == BindingKind::Storage;
        uniform_count += b.kind == BindingKind::Uniform;
      }
    }
    for (const auto* p : pipelines) set_count += uint32_t(p->set_layouts.size());
    OwnedDescriptorPool pool(device(), vk.vkDestroyDescriptorPool);
    std::vector<std::vector<VkDescriptorSet>> descriptor_sets(sequence.size());
    if (set_count > 0) {
      std::vector<VkDescriptorPoolSize> sizes;
      if (storage_count) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage_count});
      if (uniform_count) sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform_count});
      VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      info.maxSets = set_count;
      info.poolSizeCount = uint32_t(sizes.size());
      info.pPoolSizes = sizes.data();
      vk_check(vk.vkCreateDescriptorPool(device(), &info, nullptr, pool.out()), "vkCreateDescriptorPool");
      for (size_t i = 0; i < sequence.size(); ++i) {
        std::vector<VkDescriptorSetLayout> layouts;
        for (const auto& l : pipelines[i]->set_layouts) layouts.push_back(l.get());
        if (layouts.empty()) continue;
        descriptor_sets[i].resize(layouts.size());
        VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        alloc.descriptorPool = pool.get();
        alloc.descriptorSetCount = uint32_t(layouts.size());
        alloc.pSetLayouts = layouts.data();
        vk_check(vk.vkAllocateDescriptorSets(device(), &alloc, descriptor_sets[i].data()), "vkAllocateDescriptorSets");
        std::vector<VkDescriptorBufferInfo> infos;
        infos.reserve(decls[i]->bindings.size());
        std::vector<VkWriteDescriptorSet> writes;
        for (const auto& b : decls[i]->bindings) {
          if (b.kind == BindingKind::PushConstant) continue;
          const DeviceBuffer& db = device_buffers.at(b.buffer);
          infos.push_back({db.buffer.get(), 0, VK_WHOLE_SIZE});
          VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
          w.dstSet = descriptor_sets[i][b.set];
          w.dstBinding = b.binding;
          w.descriptorCount = 1;
          w.descriptorType =
              b.kind == BindingKind::Uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
          w.pBufferInfo = &infos.back();
          writes.push_back(w);
        }
        vk.vkUpdateDescriptorSets(device(), uint32_t(writes.size()), writes.data(), 0, nullptr);
      }
    }

    const uint32_t timestamps_per_repeat = 2 * uint32_t(sequence.size());
    OwnedQueryPool queries(device(), vk.vkDestroyQueryPool);
    if (timed) {
      VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = timestamps_per_repeat * repeats;
      vk_check(vk.vkCreateQueryPool(device(), &info, nullptr, queries.out()), "vkCreateQueryPool");
    }

    OwnedCommandPool command_pool(device(), vk.vkDestroyCommandPool);
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = facts.compute_queue_family;
    vk_check(vk.vkCreateCommandPool(device(), &pool_info, nullptr, command_pool.out()), "vkCreateCommandPool");
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmd_info.commandPool = command_pool.get();
    cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmd_info.commandBufferCount = 1;
    vk_check(vk.vkAllocateCommandBuffers(device(), &cmd_info, &cmd), "vkAllocateCommandBuffers");

    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk_check(vk.vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    auto barrier = [&](VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
                       VkAccessFlags dst) {
      VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      b.srcAccessMask = src;
      b.dstAccessMask = dst;
      vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
    };
    if (timed) vk.vkCmdResetQueryPool(cmd, queries.get(), 0, timestamps_per_repeat * repeats);
    for (const auto& [name, db] : device_buffers) {
      VkBufferCopy copy{staging_offset[name], 0, db.size};
      vk.vkCmdCopyBuffer(cmd, staging->buffer.get(), db.buffer.get(), 1, &copy);
    }
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);

    // Timestamps are latched at BOTTOM_OF_PIPE: "before" marks when all earlier
    // work has drained, "after" when the dispatch has finished.
    for (uint32_t r = 0; r < warmup + repeats; ++r) {
      const bool stamped = timed && r >= warmup;
      const uint32_t query_base = stamped ? (r - warmup) * timestamps_per_repeat : 0;
      for (size_t i = 0; i < sequence.size(); ++i) {
        if (r > 0 || i > 0) {
          barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT);
        }
        const Pipeline& p = *pipelines[i];
        vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline.get());
        if (!descriptor_sets[i].empty()) {
          vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout.get(), 0,
                                     uint32_t(descriptor_sets[i].size()), descriptor_sets[i].data(), 0, nullptr);
        }
        for (const auto& b : decls[i]->bindings) {
          if (b.kind != BindingKind::PushConstant) continue;
          std::vector<uint8_t> bytes = buffers.at(push_sources.empty() ? b.buffer : push_sources[i]).bytes;
          bytes.resize(p.push_constant_bytes, 0);
          vk.vkCmdPushConstants(cmd, p.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, p.push_constant_bytes,
                                bytes.data());
        }
        const uint32_t query = query_base + 2 * uint32_t(i);
        if (stamped) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries.get(), query);
        vk.vkCmdDispatch(cmd, sequence[i].groups[0], sequence[i].groups[1], sequence[i].groups[2]);
        if (stamped) vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries.get(), query + 1);
      }
    }

    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    for (const auto& [name, db] : device_buffers) {
      VkBufferCopy copy{0, staging_offset[name], db.size};
      vk.vkCmdCopyBuffer(cmd, db.buffer.get(), staging->buffer.get(), 1, &copy);
    }
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    vk_check(vk.vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    OwnedFence fence(device(), vk.vkDestroyFence);
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk_check(vk.vkCreateFence(device(), &fence_info, nullptr, fence.out()), "vkCreateFence");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    clocks_before.reset();
    if (timed) preheat(preheat_ms);
    vk_check(vk.vkQueueSubmit(context.queue(), 1, &submit, fence.get()), "vkQueueSubmit");
    VkFence fence_handle = fence.get();
    VkResult waited = vk.vkWaitForFences(device(), 1, &fence_handle, VK_TRUE, kFenceTimeoutNs);
    if (waited != VK_SUCCESS) {
      // Nothing may be destroyed while the GPU still uses it.
      vk.vkDeviceWaitIdle(device());
      if (waited == VK_TIMEOUT) {
        throw Error("vkWaitForFences: the GPU did not finish within " + std::to_string(kFenceTimeoutNs / 1'000'000'000) +
                        " s (RUN " + sequence.front().pipeline + ")",
                    place_of(script, sequence.front().line));
      }
      vk_check(waited, "vkWaitForFences");
    }
    if (timed) last_clocks = clocks.read();

    for (const auto& [name, data] : bound) {
      BufferData& out = buffers.at(name);
      std::memcpy(out.bytes.data(), static_cast<const uint8_t*>(mapped) + staging_offset[name], data->bytes.size());
    }

    std::vector<uint64_t> stamps;
    if (timed) {
      stamps.resize(size_t(timestamps_per_repeat) * repeats);
      vk_check(vk.vkGetQueryPoolResults(device(), queries.get(), 0, uint32_t(stamps.size()),
                                        stamps.size() * sizeof(uint64_t), stamps.data(), sizeof(uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults");
    }
    return stamps;
  }
};

VulkanBackend::VulkanBackend(const std::string& device_selector) : impl_(std::make_unique<Impl>(device_selector)) {}
VulkanBackend::~VulkanBackend() = default;

const VulkanDeviceFacts& VulkanBackend::device() const { return impl_->context.facts(); }

void VulkanBackend::require_subgroup_size(uint32_t lanes) { impl_->required_subgroup_size = lanes; }
void VulkanBackend::allow_any_subgroup_size() { impl_->required_subgroup_size.reset(); }

void VulkanBackend::require(const Script& script) {
  const VulkanContext& c = impl_->context;
  const Place place{script.path, 0};
  for (const auto& name : script.device_extensions) {
    if (!c.extension_supported(name))
      throw Error("Vulkan device '" + c.facts().name + "' lacks DEVICE_EXTENSION " + name, place);
    if (!c.extension_enabled(name))
      throw Error("DEVICE_EXTENSION " + name + " is not one lanelab's Vulkan runner enables", place);
  }
  for (const auto& name : script.device_features) {
    if (!VulkanContext::feature_known(name))
      throw Error("DEVICE_FEATURE " + name + " is not one lanelab's Vulkan runner knows", place);
    if (!c.feature_enabled(name)) throw Error("Vulkan device '" + c.facts().name + "' lacks DEVICE_FEATURE " + name, place);
  }
}

void VulkanBackend::dispatch(const Script& script, const PipelineDecl& pipeline, const RunCommand& run,
                             std::map<std::string, BufferData>& buffers) {
  impl_->run(script, {&pipeline}, {run}, buffers, 0, 1, false);
}

namespace {

TimedRun timed_run_of(const std::vector<uint64_t>& stamps, size_t dispatches, uint32_t repeats,
                      const VulkanDeviceFacts& f, const std::optional<ClockReading>& before,
                      const std::optional<ClockReading>& after) {
  // Timestamps count modulo 2^validBits: differences are taken in that ring.
  const uint64_t mask = f.timestamp_valid_bits >= 64 ? ~0ull : (1ull << f.timestamp_valid_bits) - 1;
  auto ns = [&](uint64_t from, uint64_t to) { return double((to - from) & mask) * f.timestamp_period_ns; };

  TimedRun timed;
  const size_t n = dispatches;
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint64_t* s = stamps.data() + r * 2 * n;
    timed.total_ns.push_back(ns(s[0], s[2 * n - 1]));
    std::vector<double> each;
    for (size_t i = 0; i < n; ++i) each.push_back(ns(s[2 * i], s[2 * i + 1]));
    timed.dispatch_ns.push_back(std::move(each));
  }
  timed.total = summarize(timed.total_ns);
  timed.clocks_before = before;
  timed.clocks = after;
  for (size_t i = 0; i < n; ++i) {
    std::vector<double> column;
    for (const auto& each : timed.dispatch_ns) column.push_back(each[i]);
    timed.per_dispatch.push_back(summarize(std::move(column)));
  }
  return timed;
}

// A script's RUN/REPEAT/COPY commands as one dispatch sequence. `push_source`
// maps a push-constant buffer to the buffer last copied into it.
void flatten(const Script& script, const std::vector<launch::Command>& commands,
             std::map<std::string, std::string>& push_source, std::vector<RunCommand>& sequence,
             std::vector<std::string>& push_sources) {
  for (const auto& command : commands) {
    if (const auto* run = std::get_if<RunCommand>(&command)) {
      std::string source;
      for (const auto& b : script.pipeline(run->pipeline).bindings)
        if (b.kind == BindingKind::PushConstant)
          source = push_source.count(b.buffer) ? push_source.at(b.buffer) : b.buffer;
      sequence.push_back(*run);
      push_sources.push_back(source);
    } else if (const auto* repeat = std::get_if<launch::RepeatCommand>(&command)) {
      for (uint32_t i = 0; i < repeat->count; ++i) flatten(script, repeat->body, push_source, sequence, push_sources);
    } else if (const auto* copy = std::get_if<launch::CopyCommand>(&command)) {
      for (const auto& p : script.pipelines)
        for (const auto& b : p.bindings)
          if (b.buffer == copy->to && b.kind != BindingKind::PushConstant)
            throw Error("COPY " + copy->from + " " + copy->to + ": a timed script may only copy into push-constant "
                        "buffers (the copy would run between timed dispatches)",
                        place_of(script, copy->line));
      push_source[copy->to] = push_source.count(copy->from) ? push_source.at(copy->from) : copy->from;
    }
  }
}

}  // namespace

TimedRun VulkanBackend::time_dispatches(const Script& script, const std::vector<RunCommand>& sequence,
                                        std::map<std::string, BufferData>& buffers, const TimingOptions& options) {
  if (options.repeats == 0) throw Error("timing needs at least one repeat");
  std::vector<const PipelineDecl*> decls;
  for (const auto& command : sequence) decls.push_back(&script.pipeline(command.pipeline));
  const std::vector<uint64_t> stamps =
      impl_->run(script, decls, sequence, buffers, options.warmup, options.repeats, true, options.preheat_ms);
  return timed_run_of(stamps, sequence.size(), options.repeats, device(), impl_->clocks_before, impl_->last_clocks);
}

TimedRun VulkanBackend::time_script(const Script& script, std::map<std::string, BufferData>& buffers,
                                    const TimingOptions& options) {
  if (options.repeats == 0) throw Error("timing needs at least one repeat");
  std::map<std::string, std::string> push_source;
  std::vector<RunCommand> sequence;
  std::vector<std::string> push_sources;
  flatten(script, script.commands, push_source, sequence, push_sources);
  std::vector<const PipelineDecl*> decls;
  for (const auto& command : sequence) decls.push_back(&script.pipeline(command.pipeline));
  const std::vector<uint64_t> stamps =
      impl_->run(script, decls, sequence, buffers, options.warmup, options.repeats, true, options.preheat_ms,
                 push_sources);
  return timed_run_of(stamps, sequence.size(), options.repeats, device(), impl_->clocks_before, impl_->last_clocks);
}

double VulkanBackend::measure_launch_overhead_ns(const TimingOptions& options) {
  // Back-to-back dispatches of a kernel that does nothing, as a real sequence
  // records them (barrier, bind, dispatch).
  constexpr int kDispatches = 16;
  const Script script = single_kernel_script("empty", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  RunCommand run;
  run.pipeline = "empty";
  std::map<std::string, BufferData> no_buffers;
  // The overhead is a property of the device, not of a requested subgroup size.
  const auto subgroup_size = std::exchange(impl_->required_subgroup_size, std::nullopt);
  TimedRun timed;
  try {
    timed = time_dispatches(script, std::vector<RunCommand>(kDispatches, run), no_buffers, options);
  } catch (...) {
    impl_->required_subgroup_size = subgroup_size;
    throw;
  }
  impl_->required_subgroup_size = subgroup_size;
  std::vector<double> all;
  for (const auto& each : timed.dispatch_ns) all.insert(all.end(), each.begin(), each.end());
  return summarize(std::move(all)).median;
}

KernelStatistics VulkanBackend::pipeline_statistics(const Script& script, const PipelineDecl& decl) {
  const VulkanContext& c = impl_->context;
  if (!c.facts().pipeline_executable_properties) return {};
  const VulkanFunctions& vk = c.vk();
  const Pipeline& p = impl_->pipeline(script, decl, script.buffers);

  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = p.pipeline.get();
  uint32_t count = 0;
  vk_check(vk.vkGetPipelineExecutablePropertiesKHR(c.device(), &info, &count, nullptr),
           "vkGetPipelineExecutablePropertiesKHR");
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  vk_check(vk.vkGetPipelineExecutablePropertiesKHR(c.device(), &info, &count, executables.data()),
           "vkGetPipelineExecutablePropertiesKHR");

  KernelStatistics stats;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    exec.pipeline = p.pipeline.get();
    exec.executableIndex = e;
    uint32_t stat_count = 0;
    vk_check(vk.vkGetPipelineExecutableStatisticsKHR(c.device(), &exec, &stat_count, nullptr),
             "vkGetPipelineExecutableStatisticsKHR");
    std::vector<VkPipelineExecutableStatisticKHR> list(stat_count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    vk_check(vk.vkGetPipelineExecutableStatisticsKHR(c.device(), &exec, &stat_count, list.data()),
             "vkGetPipelineExecutableStatisticsKHR");
    const std::string prefix = count > 1 ? std::string(executables[e].name) + "/" : "";
    for (const auto& s : list) {
      uint64_t value = 0;
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = s.value.b32; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = uint64_t(std::max<int64_t>(s.value.i64, 0)); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = s.value.u64; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = uint64_t(std::llround(std::max(s.value.f64, 0.0))); break;
        default: continue;
      }
      stats[prefix + s.name] = value;
    }
  }
  return stats;
}

}  // namespace lanelab::validate
