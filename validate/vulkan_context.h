#pragma once
// A real GPU reached through Vulkan: the loader (opened at run time, so the
// simulator runs on machines without one), the physical devices and the facts
// about them that the simulator's device models are checked against, and one
// logical device with a compute queue.
//
// Every failure -- no loader, no driver, no device, a VkResult error -- is a
// lanelab::Error naming the call and the result code.
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace lanelab::validate {

// Vulkan entry points, loaded through vkGetInstanceProcAddr / vkGetDeviceProcAddr.
#define LANELAB_VK_INSTANCE_FUNCTIONS(X)        \
  X(vkDestroyInstance)                          \
  X(vkEnumeratePhysicalDevices)                 \
  X(vkGetPhysicalDeviceProperties)              \
  X(vkGetPhysicalDeviceProperties2)             \
  X(vkGetPhysicalDeviceFeatures2)               \
  X(vkGetPhysicalDeviceQueueFamilyProperties)   \
  X(vkGetPhysicalDeviceMemoryProperties)        \
  X(vkEnumerateDeviceExtensionProperties)       \
  X(vkCreateDevice)                             \
  X(vkGetDeviceProcAddr)

#define LANELAB_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                   \
  X(vkGetDeviceQueue)                  \
  X(vkDeviceWaitIdle)                  \
  X(vkCreateBuffer)                    \
  X(vkDestroyBuffer)                   \
  X(vkGetBufferMemoryRequirements)     \
  X(vkAllocateMemory)                  \
  X(vkFreeMemory)                      \
  X(vkBindBufferMemory)                \
  X(vkMapMemory)                       \
  X(vkUnmapMemory)                     \
  X(vkCreateShaderModule)              \
  X(vkDestroyShaderModule)             \
  X(vkCreateDescriptorSetLayout)       \
  X(vkDestroyDescriptorSetLayout)      \
  X(vkCreatePipelineLayout)            \
  X(vkDestroyPipelineLayout)           \
  X(vkCreateComputePipelines)          \
  X(vkDestroyPipeline)                 \
  X(vkCreateDescriptorPool)            \
  X(vkDestroyDescriptorPool)           \
  X(vkAllocateDescriptorSets)          \
  X(vkUpdateDescriptorSets)            \
  X(vkCreateCommandPool)               \
  X(vkDestroyCommandPool)              \
  X(vkAllocateCommandBuffers)          \
  X(vkBeginCommandBuffer)              \
  X(vkEndCommandBuffer)                \
  X(vkCmdBindPipeline)                 \
  X(vkCmdBindDescriptorSets)           \
  X(vkCmdPushConstants)                \
  X(vkCmdDispatch)                     \
  X(vkCmdPipelineBarrier)              \
  X(vkCmdCopyBuffer)                   \
  X(vkCmdWriteTimestamp)               \
  X(vkCmdResetQueryPool)               \
  X(vkCreateQueryPool)                 \
  X(vkDestroyQueryPool)                \
  X(vkGetQueryPoolResults)             \
  X(vkCreateFence)                     \
  X(vkDestroyFence)                    \
  X(vkWaitForFences)                   \
  X(vkQueueSubmit)

// Only present when VK_KHR_pipeline_executable_properties is enabled.
#define LANELAB_VK_PIPELINE_EXECUTABLE_FUNCTIONS(X) \
  X(vkGetPipelineExecutablePropertiesKHR)           \
  X(vkGetPipelineExecutableStatisticsKHR)

struct VulkanFunctions {
#define LANELAB_VK_MEMBER(name) PFN_##name name = nullptr;
  LANELAB_VK_INSTANCE_FUNCTIONS(LANELAB_VK_MEMBER)
  LANELAB_VK_DEVICE_FUNCTIONS(LANELAB_VK_MEMBER)
  LANELAB_VK_PIPELINE_EXECUTABLE_FUNCTIONS(LANELAB_VK_MEMBER)
#undef LANELAB_VK_MEMBER
};

// "VK_ERROR_DEVICE_LOST", or the number for codes this build does not name.
std::string vk_result_name(VkResult result);
// Throws Error("<call> failed: <result>") unless result is VK_SUCCESS.
void vk_check(VkResult result, const char* call);

// What one physical device offers, as the simulator's device models describe it.
struct VulkanDeviceFacts {
  uint32_t index = 0;                      // position in vkEnumeratePhysicalDevices
  std::string name;
  std::string device_type;                 // "discrete GPU", "CPU", ...
  std::string driver_name;                 // VkPhysicalDeviceDriverProperties (Vulkan 1.2)
  std::string driver_info;
  std::string driver_version;              // decoded per vendor convention
  std::string api_version;                 // "1.3.230"
  uint32_t api_version_raw = 0;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;

  uint32_t subgroup_size = 0;              // the default size
  uint32_t min_subgroup_size = 0;          // from subgroup size control; 0 = not reported
  uint32_t max_subgroup_size = 0;          // (a compiler may then pick any size, as on older Intel drivers)
  uint32_t max_compute_workgroup_subgroups = 0;
  bool subgroup_size_control = false;      // feature subgroupSizeControl
  bool compute_full_subgroups = false;
  bool required_subgroup_size_in_compute = false;  // requiredSubgroupSizeStages has COMPUTE
  std::vector<std::string> subgroup_operations;    // "basic", "vote", "arithmetic", ...
  std::vector<std::string> subgroup_stages;        // "compute", "fragment", ...

  uint32_t max_compute_shared_memory_bytes = 0;
  std::array<uint32_t, 3> max_workgroup_size = {0, 0, 0};
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_count = {0, 0, 0};
  uint32_t max_push_constants_bytes = 0;

  uint32_t compute_queue_family = 0;
  double timestamp_period_ns = 0.0;        // nanoseconds per timestamp tick
  uint32_t timestamp_valid_bits = 0;       // of the compute queue family; 0 = no timestamps

  bool pipeline_executable_properties = false;  // VK_KHR_pipeline_executable_properties
  bool calibrated_timestamps = false;           // VK_KHR_/VK_EXT_calibrated_timestamps
  bool shader_clock = false;                    // VK_KHR_shader_clock
};

// The facts of every Vulkan device; throws Error when there is no loader,
// no driver or no device.
std::vector<VulkanDeviceFacts> list_vulkan_devices();
void print_vulkan_device(std::ostream& out, const VulkanDeviceFacts& facts);
void print_vulkan_devices(std::ostream& out);

// One logical device with a compute queue. `device_selector` (--vk-device) is
// "" for the first device, a decimal index, or a case-insensitive substring of
// the device name. Enables, where present, subgroup size control, pipeline
// executable properties, calibrated timestamps, shader clock and the shader
// features that kernels name in DEVICE_FEATURE lines.
class VulkanContext {
 public:
  explicit VulkanContext(const std::string& device_selector = "");
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  const VulkanFunctions& vk() const { return vk_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  const VulkanDeviceFacts& facts() const { return facts_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }

  // Supported by the device and enabled on this logical device.
  bool extension_enabled(const std::string& name) const { return enabled_extensions_.count(name) > 0; }
  bool extension_supported(const std::string& name) const { return supported_extensions_.count(name) > 0; }
  // Feature names as AmberScript writes them: "shaderInt64" or
  // "SubgroupSizeControl.subgroupSizeControl". Unknown names are refused.
  bool feature_enabled(const std::string& name) const;
  static bool feature_known(const std::string& name);

 private:
  VulkanFunctions vk_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VulkanDeviceFacts facts_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  std::set<std::string> supported_extensions_;
  std::set<std::string> enabled_extensions_;
  std::set<std::string> enabled_features_;   // qualified names, "Struct.member"
};

}  // namespace lanelab::validate
