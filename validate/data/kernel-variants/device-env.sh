# Sourced by the run-*.sh scripts, from the repository root on the device
# machine: the NVIDIA runtime packages carried in .gpu-runtime installed,
# the driver's Vulkan ICD named, and B the Release build carried in build-device.
B=build-device/lanelab
for f in .gpu-runtime/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done; ldconfig
echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.3.0"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json
