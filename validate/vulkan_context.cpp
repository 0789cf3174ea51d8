#include "validate/vulkan_context.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include "sim/common/error.h"

namespace lanelab::validate {

std::string vk_result_name(VkResult result) {
  switch (result) {
#define LANELAB_VK_RESULT(code) \
  case code:                    \
    return #code;
    LANELAB_VK_RESULT(VK_SUCCESS)
    LANELAB_VK_RESULT(VK_NOT_READY)
    LANELAB_VK_RESULT(VK_TIMEOUT)
    LANELAB_VK_RESULT(VK_INCOMPLETE)
    LANELAB_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    LANELAB_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    LANELAB_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    LANELAB_VK_RESULT(VK_ERROR_DEVICE_LOST)
    LANELAB_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    LANELAB_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    LANELAB_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    LANELAB_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    LANELAB_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    LANELAB_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    LANELAB_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    LANELAB_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    LANELAB_VK_RESULT(VK_ERROR_UNKNOWN)
    LANELAB_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    LANELAB_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    LANELAB_VK_RESULT(VK_ERROR_FRAGMENTATION)
    LANELAB_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    LANELAB_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    LANELAB_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef LANELAB_VK_RESULT
    default:
      return "VkResult " + std::to_string(int(result));
  }
}

void vk_check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw Error(std::string(call) + " failed: " + vk_result_name(result));
}

namespace {

constexpr const char* kNoDriverHint =
    "no Vulkan driver found (install mesa-vulkan-drivers for the lavapipe CPU device, "
    "or point VK_DRIVER_FILES at a driver's ICD json)";

// The loader is opened once per process and never closed: function pointers
// taken from it live as long as the process.
PFN_vkGetInstanceProcAddr loader_entry() {
  static PFN_vkGetInstanceProcAddr entry = [] {
    void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      throw Error("no Vulkan loader: libvulkan.so.1 could not be opened (install libvulkan1, "
                  "or on the GPU machine carry .gpu-runtime, see shared/device/README.md)");
    }
    auto f = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
    if (!f) throw Error("the Vulkan loader libvulkan.so.1 has no vkGetInstanceProcAddr");
    return f;
  }();
  return entry;
}

std::string version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

// Vendors pack driverVersion differently; NVIDIA's is 10.8.8.6 bits.
std::string driver_version_string(uint32_t vendor_id, uint32_t v) {
  if (vendor_id == 0x10DE) {
    return std::to_string((v >> 22) & 0x3ff) + "." + std::to_string((v >> 14) & 0xff) + "." +
           std::to_string((v >> 6) & 0xff) + "." + std::to_string(v & 0x3f);
  }
  return version_string(v);
}

std::string device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

const std::pair<VkSubgroupFeatureFlagBits, const char*> kSubgroupOperations[] = {
    {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
    {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
    {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
    {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
    {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
    {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffleRelative"},
    {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
    {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
};

const std::pair<VkShaderStageFlagBits, const char*> kShaderStages[] = {
    {VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
    {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tessellationControl"},
    {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "tessellationEvaluation"},
    {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
    {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
    {VK_SHADER_STAGE_COMPUTE_BIT, "compute"},
};

// An instance with its instance-level functions; destroyed with it.
struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  VulkanFunctions vk;

  Instance() {
    PFN_vkGetInstanceProcAddr gipa = loader_entry();
    auto enumerate_version =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(gipa(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
    auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
    if (!enumerate_version || !create_instance) {
      throw Error("the Vulkan loader is older than Vulkan 1.1; lanelab needs 1.1 or newer");
    }
    uint32_t loader_version = 0;
    vk_check(enumerate_version(&loader_version), "vkEnumerateInstanceVersion");

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "lanelab";
    app.pEngineName = "lanelab";
    app.apiVersion = std::min(loader_version, uint32_t(VK_API_VERSION_1_3));
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkResult result = create_instance(&info, nullptr, &handle);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER) throw Error(std::string("vkCreateInstance: ") + kNoDriverHint);
    vk_check(result, "vkCreateInstance");
#define LANELAB_VK_LOAD(name) vk.name = reinterpret_cast<PFN_##name>(gipa(handle, #name));
    LANELAB_VK_INSTANCE_FUNCTIONS(LANELAB_VK_LOAD)
#undef LANELAB_VK_LOAD
    if (!vk.vkGetPhysicalDeviceProperties2 || !vk.vkCreateDevice) {
      if (vk.vkDestroyInstance) vk.vkDestroyInstance(handle, nullptr);
      throw Error("the Vulkan loader lacks Vulkan 1.1 entry points");
    }
  }
  ~Instance() {
    if (handle) vk.vkDestroyInstance(handle, nullptr);
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  std::vector<VkPhysicalDevice> physical_devices() const {
    uint32_t count = 0;
    vk_check(vk.vkEnumeratePhysicalDevices(handle, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> devices(count);
    VkResult result = vk.vkEnumeratePhysicalDevices(handle, &count, devices.data());
    if (result != VK_INCOMPLETE) vk_check(result, "vkEnumeratePhysicalDevices");
    devices.resize(count);
    if (devices.empty()) throw Error(std::string("no Vulkan device: ") + kNoDriverHint);
    return devices;
  }
};

std::set<std::string> device_extensions(const VulkanFunctions& vk, VkPhysicalDevice device) {
  uint32_t count = 0;
  vk_check(vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr),
           "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> props(count);
  VkResult result = vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, props.data());
  if (result != VK_INCOMPLETE) vk_check(result, "vkEnumerateDeviceExtensionProperties");
  std::set<std::string> names;
  for (uint32_t i = 0; i < count; ++i) names.insert(props[i].extensionName);
  return names;
}

bool has_or_core(const std::set<std::string>& extensions, uint32_t api, uint32_t core_in, const char* extension) {
  return api >= core_in || extensions.count(extension) > 0;
}

const char* calibrated_timestamps_extension(const std::set<std::string>& extensions) {
  if (extensions.count("VK_KHR_calibrated_timestamps")) return "VK_KHR_calibrated_timestamps";
  if (extensions.count("VK_EXT_calibrated_timestamps")) return "VK_EXT_calibrated_timestamps";
  return nullptr;
}

// The feature structures lanelab knows, chained only where the device's API
// version or extensions define them.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceVariablePointersFeatures variable_pointers{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup_extended_types{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  VkPhysicalDeviceVulkanMemoryModelFeatures memory_model{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES};
  VkPhysicalDeviceShaderAtomicInt64Features atomic_int64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pipeline_executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceShaderClockFeaturesKHR shader_clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};

  FeatureChain(uint32_t api, const std::set<std::string>& ext) {
    void** tail = &core.pNext;
    auto link = [&tail](auto& s) {
      *tail = &s;
      tail = &s.pNext;
    };
    if (has_or_core(ext, api, VK_API_VERSION_1_1, "VK_KHR_16bit_storage")) link(storage16);
    if (has_or_core(ext, api, VK_API_VERSION_1_1, "VK_KHR_variable_pointers")) link(variable_pointers);
    if (has_or_core(ext, api, VK_API_VERSION_1_2, "VK_KHR_8bit_storage")) link(storage8);
    if (has_or_core(ext, api, VK_API_VERSION_1_2, "VK_KHR_shader_float16_int8")) link(float16_int8);
    if (has_or_core(ext, api, VK_API_VERSION_1_2, "VK_KHR_shader_subgroup_extended_types"))
      link(subgroup_extended_types);
    if (has_or_core(ext, api, VK_API_VERSION_1_2, "VK_KHR_vulkan_memory_model")) link(memory_model);
    if (has_or_core(ext, api, VK_API_VERSION_1_2, "VK_KHR_shader_atomic_int64")) link(atomic_int64);
    if (has_or_core(ext, api, VK_API_VERSION_1_3, "VK_EXT_subgroup_size_control")) link(subgroup_size_control);
    if (ext.count("VK_KHR_pipeline_executable_properties")) link(pipeline_executable);
    if (ext.count("VK_KHR_shader_clock")) link(shader_clock);
  }
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;
};

// One feature as AmberScript names it, and where it lives in the chain.
struct FeatureEntry {
  const char* name;  // "Struct.member"; core features are "Features.member"
  std::function<VkBool32&(FeatureChain&)> field;
};

#define LANELAB_FEATURE(prefix, member, path) \
  FeatureEntry { prefix "." #member, [](FeatureChain& c) -> VkBool32& { return c.path.member; } }

// Shader features only: graphics features and robustBufferAccess (which costs
// performance) are never enabled.
const std::vector<FeatureEntry>& feature_table() {
  static const std::vector<FeatureEntry> table = {
      LANELAB_FEATURE("Features", shaderFloat64, core.features),
      LANELAB_FEATURE("Features", shaderInt64, core.features),
      LANELAB_FEATURE("Features", shaderInt16, core.features),
      LANELAB_FEATURE("Features", shaderUniformBufferArrayDynamicIndexing, core.features),
      LANELAB_FEATURE("Features", shaderStorageBufferArrayDynamicIndexing, core.features),
      LANELAB_FEATURE("Features", pipelineStatisticsQuery, core.features),
      LANELAB_FEATURE("Storage16BitFeatures", storageBuffer16BitAccess, storage16),
      LANELAB_FEATURE("Storage16BitFeatures", uniformAndStorageBuffer16BitAccess, storage16),
      LANELAB_FEATURE("Storage16BitFeatures", storagePushConstant16, storage16),
      LANELAB_FEATURE("VariablePointerFeatures", variablePointersStorageBuffer, variable_pointers),
      LANELAB_FEATURE("VariablePointerFeatures", variablePointers, variable_pointers),
      LANELAB_FEATURE("Storage8BitFeatures", storageBuffer8BitAccess, storage8),
      LANELAB_FEATURE("Storage8BitFeatures", uniformAndStorageBuffer8BitAccess, storage8),
      LANELAB_FEATURE("Storage8BitFeatures", storagePushConstant8, storage8),
      LANELAB_FEATURE("Float16Int8Features", shaderFloat16, float16_int8),
      LANELAB_FEATURE("Float16Int8Features", shaderInt8, float16_int8),
      LANELAB_FEATURE("ShaderSubgroupExtendedTypesFeatures", shaderSubgroupExtendedTypes, subgroup_extended_types),
      LANELAB_FEATURE("VulkanMemoryModelFeatures", vulkanMemoryModel, memory_model),
      LANELAB_FEATURE("VulkanMemoryModelFeatures", vulkanMemoryModelDeviceScope, memory_model),
      LANELAB_FEATURE("ShaderAtomicInt64Features", shaderBufferInt64Atomics, atomic_int64),
      LANELAB_FEATURE("ShaderAtomicInt64Features", shaderSharedInt64Atomics, atomic_int64),
      LANELAB_FEATURE("SubgroupSizeControl", subgroupSizeControl, subgroup_size_control),
      LANELAB_FEATURE("SubgroupSizeControl", computeFullSubgroups, subgroup_size_control),
      LANELAB_FEATURE("PipelineExecutablePropertiesFeatures", pipelineExecutableInfo, pipeline_executable),
      LANELAB_FEATURE("ShaderClockFeatures", shaderSubgroupClock, shader_clock),
      LANELAB_FEATURE("ShaderClockFeatures", shaderDeviceClock, shader_clock),
  };
  return table;
}
#undef LANELAB_FEATURE

// "shaderInt64" is AmberScript's spelling of the core "Features.shaderInt64".
std::string qualified_feature_name(const std::string& name) {
  return name.find('.') == std::string::npos ? "Features." + name : name;
}

VulkanDeviceFacts query_facts(const VulkanFunctions& vk, VkPhysicalDevice device, uint32_t index,
                              const std::set<std::string>& extensions) {
  VkPhysicalDeviceProperties basic{};
  vk.vkGetPhysicalDeviceProperties(device, &basic);
  const uint32_t api = basic.apiVersion;

  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  void** tail = &props.pNext;
  const bool has_subgroup = api >= VK_API_VERSION_1_1;
  const bool has_driver = has_or_core(extensions, api, VK_API_VERSION_1_2, "VK_KHR_driver_properties");
  const bool has_size_control = has_or_core(extensions, api, VK_API_VERSION_1_3, "VK_EXT_subgroup_size_control");
  if (has_subgroup) { *tail = &subgroup; tail = &subgroup.pNext; }
  if (has_driver) { *tail = &driver; tail = &driver.pNext; }
  if (has_size_control) { *tail = &size_control; tail = &size_control.pNext; }
  vk.vkGetPhysicalDeviceProperties2(device, &props);

  FeatureChain features(api, extensions);
  vk.vkGetPhysicalDeviceFeatures2(device, &features.core);

  VulkanDeviceFacts f;
  f.index = index;
  f.name = basic.deviceName;
  f.device_type = device_type_name(basic.deviceType);
  if (has_driver) {
    f.driver_name = driver.driverName;
    f.driver_info = driver.driverInfo;
  }
  f.driver_version = driver_version_string(basic.vendorID, basic.driverVersion);
  f.api_version = version_string(api);
  f.api_version_raw = api;
  f.vendor_id = basic.vendorID;
  f.device_id = basic.deviceID;

  f.subgroup_size = subgroup.subgroupSize;
  if (has_size_control) {
    f.min_subgroup_size = size_control.minSubgroupSize;
    f.max_subgroup_size = size_control.maxSubgroupSize;
    f.max_compute_workgroup_subgroups = size_control.maxComputeWorkgroupSubgroups;
    f.subgroup_size_control = features.subgroup_size_control.subgroupSizeControl;
    f.compute_full_subgroups = features.subgroup_size_control.computeFullSubgroups;
    f.required_subgroup_size_in_compute = (size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  for (auto [bit, name] : kSubgroupOperations)
    if (subgroup.supportedOperations & bit) f.subgroup_operations.push_back(name);
  for (auto [bit, name] : kShaderStages)
    if (subgroup.supportedStages & bit) f.subgroup_stages.push_back(name);

  const VkPhysicalDeviceLimits& limits = basic.limits;
  f.max_compute_shared_memory_bytes = limits.maxComputeSharedMemorySize;
  for (int i = 0; i < 3; ++i) {
    f.max_workgroup_size[i] = limits.maxComputeWorkGroupSize[i];
    f.max_workgroup_count[i] = limits.maxComputeWorkGroupCount[i];
  }
  f.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  f.max_push_constants_bytes = limits.maxPushConstantsSize;
  f.timestamp_period_ns = limits.timestampPeriod;

  // The compute queue: the first family that computes and has timestamps,
  // else the first that computes.
  uint32_t family_count = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(device, &family_count, families.data());
  bool found = false;
  for (int pass = 0; pass < 2 && !found; ++pass) {
    for (uint32_t i = 0; i < family_count && !found; ++i) {
      if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
      if (pass == 0 && families[i].timestampValidBits == 0) continue;
      f.compute_queue_family = i;
      f.timestamp_valid_bits = families[i].timestampValidBits;
      found = true;
    }
  }
  if (!found) throw Error("Vulkan device '" + f.name + "' has no compute queue");

  f.pipeline_executable_properties = features.pipeline_executable.pipelineExecutableInfo;
  f.calibrated_timestamps = calibrated_timestamps_extension(extensions) != nullptr;
  f.shader_clock = extensions.count("VK_KHR_shader_clock") > 0;
  return f;
}

std::string lowercase(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : " ") + item;
  return s;
}

}  // namespace

std::vector<VulkanDeviceFacts> list_vulkan_devices() {
  Instance instance;
  std::vector<VulkanDeviceFacts> all;
  auto devices = instance.physical_devices();
  for (uint32_t i = 0; i < devices.size(); ++i)
    all.push_back(query_facts(instance.vk, devices[i], i, device_extensions(instance.vk, devices[i])));
  return all;
}

void print_vulkan_device(std::ostream& out, const VulkanDeviceFacts& f) {
  auto known = [](uint32_t v) { return v ? std::to_string(v) : std::string("?"); };
  char ids[64];
  std::snprintf(ids, sizeof ids, "vendor 0x%04x device 0x%04x", f.vendor_id, f.device_id);
  out << "vulkan:" << f.index << "  " << f.name << " (" << f.device_type << ")\n"
      << "  driver               " << (f.driver_name.empty() ? "?" : f.driver_name) << " " << f.driver_version
      << (f.driver_info.empty() ? "" : " (" + f.driver_info + ")") << "\n"
      << "  api                  " << f.api_version << ", " << ids << "\n"
      << "  subgroup size        " << f.subgroup_size << " (min " << known(f.min_subgroup_size) << ", max "
      << known(f.max_subgroup_size) << ", size control " << (f.subgroup_size_control ? "yes" : "no")
      << ", required size in compute " << (f.required_subgroup_size_in_compute ? "yes" : "no") << ")\n"
      << "  subgroup operations  " << join(f.subgroup_operations) << "\n"
      << "  subgroup stages      " << join(f.subgroup_stages) << "\n"
      << "  shared memory        " << f.max_compute_shared_memory_bytes << " bytes per workgroup\n"
      << "  workgroup size       max " << f.max_workgroup_size[0] << " x " << f.max_workgroup_size[1] << " x "
      << f.max_workgroup_size[2] << ", " << f.max_workgroup_invocations << " invocations\n"
      << "  timestamps           period " << f.timestamp_period_ns << " ns, " << f.timestamp_valid_bits
      << " valid bits (queue family " << f.compute_queue_family << ")\n"
      << "  extensions           pipeline executable properties "
      << (f.pipeline_executable_properties ? "yes" : "no") << ", calibrated timestamps "
      << (f.calibrated_timestamps ? "yes" : "no") << ", shader clock " << (f.shader_clock ? "yes" : "no") << "\n";
}

void print_vulkan_devices(std::ostream& out) {
  for (const auto& facts : list_vulkan_devices()) print_vulkan_device(out, facts);
}

VulkanContext::VulkanContext(const std::string& device_selector) {
  auto instance = std::make_unique<Instance>();
  auto devices = instance->physical_devices();
  std::vector<VulkanDeviceFacts> all;
  std::vector<std::set<std::string>> extensions;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    extensions.push_back(device_extensions(instance->vk, devices[i]));
    all.push_back(query_facts(instance->vk, devices[i], i, extensions.back()));
  }

  // "" picks the first GPU (a CPU device such as lavapipe only when it is alone).
  std::optional<uint32_t> chosen;
  if (device_selector.empty()) {
    for (const auto& f : all)
      if (!chosen && f.device_type != "CPU") chosen = f.index;
    if (!chosen) chosen = 0;
  } else if (std::all_of(device_selector.begin(), device_selector.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    uint32_t i = uint32_t(std::stoul(device_selector));
    if (i >= all.size()) {
      throw Error("--vk-device " + device_selector + ": there are only " + std::to_string(all.size()) +
                  " Vulkan devices");
    }
    chosen = i;
  } else {
    for (const auto& f : all)
      if (!chosen && lowercase(f.name).find(lowercase(device_selector)) != std::string::npos) chosen = f.index;
    if (!chosen) {
      std::string names;
      for (const auto& f : all) names += (names.empty() ? "" : ", ") + ("'" + f.name + "'");
      throw Error("--vk-device " + device_selector + ": no Vulkan device name contains it (devices: " + names + ")");
    }
  }
  facts_ = all[*chosen];
  physical_device_ = devices[*chosen];
  supported_extensions_ = extensions[*chosen];
  const uint32_t api = facts_.api_version_raw;
  if (api < VK_API_VERSION_1_1) {
    throw Error("Vulkan device '" + facts_.name + "' supports only Vulkan " + facts_.api_version +
                "; lanelab needs 1.1 or newer");
  }

  // Extensions: the tools lanelab measures with, and the shader extensions
  // kernels may name in DEVICE_EXTENSION lines (only those the API version
  // does not already include).
  const char* wanted[] = {
      "VK_EXT_subgroup_size_control", "VK_KHR_pipeline_executable_properties", "VK_KHR_shader_clock",
      "VK_KHR_16bit_storage", "VK_KHR_8bit_storage", "VK_KHR_shader_float16_int8",
      "VK_KHR_variable_pointers", "VK_KHR_storage_buffer_storage_class",
      "VK_KHR_shader_subgroup_extended_types", "VK_KHR_vulkan_memory_model", "VK_KHR_shader_atomic_int64",
      "VK_KHR_shader_float_controls", "VK_KHR_spirv_1_4", "VK_KHR_shader_non_semantic_info",
      "VK_KHR_shader_integer_dot_product", "VK_EXT_shader_atomic_float",
      "VK_KHR_shader_subgroup_uniform_control_flow", "VK_KHR_driver_properties",
  };
  for (const char* name : wanted)
    if (supported_extensions_.count(name)) enabled_extensions_.insert(name);
  if (const char* calibrated = calibrated_timestamps_extension(supported_extensions_))
    enabled_extensions_.insert(calibrated);
  std::vector<const char*> extension_names;
  for (const auto& name : enabled_extensions_) extension_names.push_back(name.c_str());

  FeatureChain features(api, supported_extensions_);
  instance->vk.vkGetPhysicalDeviceFeatures2(physical_device_, &features.core);
  // Keep only the shader features lanelab knows; everything else stays off.
  FeatureChain enable(api, supported_extensions_);
  for (const auto& entry : feature_table()) {
    if (entry.field(features)) {
      entry.field(enable) = VK_TRUE;
      enabled_features_.insert(entry.name);
    }
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = facts_.compute_queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enable.core;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = uint32_t(extension_names.size());
  info.ppEnabledExtensionNames = extension_names.data();
  vk_check(instance->vk.vkCreateDevice(physical_device_, &info, nullptr, &device_), "vkCreateDevice");

  vk_ = instance->vk;
  instance_ = instance->handle;
  instance->handle = VK_NULL_HANDLE;  // owned by this context from here on

#define LANELAB_VK_LOAD(name) vk_.name = reinterpret_cast<PFN_##name>(vk_.vkGetDeviceProcAddr(device_, #name));
  LANELAB_VK_DEVICE_FUNCTIONS(LANELAB_VK_LOAD)
  if (facts_.pipeline_executable_properties) {
    LANELAB_VK_PIPELINE_EXECUTABLE_FUNCTIONS(LANELAB_VK_LOAD)
  }
#undef LANELAB_VK_LOAD
  vk_.vkGetDeviceQueue(device_, facts_.compute_queue_family, 0, &queue_);
  vk_.vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
}

VulkanContext::~VulkanContext() {
  if (device_) {
    vk_.vkDeviceWaitIdle(device_);
    vk_.vkDestroyDevice(device_, nullptr);
  }
  if (instance_) vk_.vkDestroyInstance(instance_, nullptr);
}

bool VulkanContext::feature_known(const std::string& name) {
  if (name.rfind("SubgroupSupportedOperations.", 0) == 0) {
    std::string op = name.substr(name.find('.') + 1);
    return std::any_of(std::begin(kSubgroupOperations), std::end(kSubgroupOperations),
                       [&](const auto& e) { return op == e.second; });
  }
  if (name.rfind("SubgroupSupportedStages.", 0) == 0) {
    std::string stage = name.substr(name.find('.') + 1);
    return std::any_of(std::begin(kShaderStages), std::end(kShaderStages),
                       [&](const auto& e) { return stage == e.second; });
  }
  const std::string qualified = qualified_feature_name(name);
  return std::any_of(feature_table().begin(), feature_table().end(),
                     [&](const FeatureEntry& e) { return qualified == e.name; });
}

bool VulkanContext::feature_enabled(const std::string& name) const {
  const std::string suffix = name.substr(name.find('.') + 1);
  if (name.rfind("SubgroupSupportedOperations.", 0) == 0)
    return std::count(facts_.subgroup_operations.begin(), facts_.subgroup_operations.end(), suffix) > 0;
  if (name.rfind("SubgroupSupportedStages.", 0) == 0)
    return std::count(facts_.subgroup_stages.begin(), facts_.subgroup_stages.end(), suffix) > 0;
  return enabled_features_.count(qualified_feature_name(name)) > 0;
}

}  // namespace lanelab::validate
