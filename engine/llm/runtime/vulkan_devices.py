"""The Vulkan devices of this machine, asked of the system's Vulkan loader directly.

llama.cpp's Vulkan backend hides devices that run on the CPU (Mesa's lavapipe) unless
``GGML_VK_VISIBLE_DEVICES`` names their index, so its own device list cannot say whether such
a driver exists or which index it has. The loader can: ``vkEnumeratePhysicalDevices`` lists
the devices in the order llama.cpp indexes them. Hand-written ctypes because no Python
Vulkan binding is a dependency here and three calls suffice; a machine without
``libvulkan.so.1`` gets an empty list and the loader's error.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)

# VkPhysicalDeviceType
TYPES = {0: "other", 1: "integrated GPU", 2: "discrete GPU", 3: "virtual GPU", 4: "CPU"}
VENDOR_IDS = {0x10DE: "NVIDIA", 0x1002: "AMD", 0x1022: "AMD", 0x8086: "Intel", 0x10005: "Mesa"}
_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1
_PROPERTIES_BYTES = 1024  # VkPhysicalDeviceProperties is 824 bytes; the head is all we read


class _InstanceCreateInfo(ctypes.Structure):
    _fields_ = [
        ("sType", ctypes.c_uint32),
        ("pNext", ctypes.c_void_p),
        ("flags", ctypes.c_uint32),
        ("pApplicationInfo", ctypes.c_void_p),
        ("enabledLayerCount", ctypes.c_uint32),
        ("ppEnabledLayerNames", ctypes.c_void_p),
        ("enabledExtensionCount", ctypes.c_uint32),
        ("ppEnabledExtensionNames", ctypes.c_void_p),
    ]


class _PropertiesHead(ctypes.Structure):
    _fields_ = [
        ("apiVersion", ctypes.c_uint32),
        ("driverVersion", ctypes.c_uint32),
        ("vendorID", ctypes.c_uint32),
        ("deviceID", ctypes.c_uint32),
        ("deviceType", ctypes.c_uint32),
        ("deviceName", ctypes.c_char * 256),
    ]


@dataclass(frozen=True)
class VulkanDevice:
    index: int  # what GGML_VK_VISIBLE_DEVICES names
    name: str
    vendor: str
    type: str  # TYPES

    @property
    def on_cpu(self) -> bool:
        return self.type == "CPU"


def vulkan_devices() -> tuple[list[VulkanDevice], str | None]:
    """The loader's physical devices, and why there are none when there are none."""
    try:
        vk = ctypes.CDLL("libvulkan.so.1")
    except OSError as exc:
        return [], str(exc)
    create, destroy = vk.vkCreateInstance, vk.vkDestroyInstance
    create.restype, create.argtypes = (
        ctypes.c_int32,
        [
            ctypes.POINTER(_InstanceCreateInfo),
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_void_p),
        ],
    )
    destroy.restype, destroy.argtypes = None, [ctypes.c_void_p, ctypes.c_void_p]
    enum = vk.vkEnumeratePhysicalDevices
    enum.restype = ctypes.c_int32
    enum.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p]
    props = vk.vkGetPhysicalDeviceProperties
    props.restype, props.argtypes = None, [ctypes.c_void_p, ctypes.c_void_p]
    info = _InstanceCreateInfo(sType=_STRUCTURE_TYPE_INSTANCE_CREATE_INFO)
    instance = ctypes.c_void_p()
    code = create(ctypes.byref(info), None, ctypes.byref(instance))
    if code != 0:  # VK_ERROR_INCOMPATIBLE_DRIVER (-9): the loader found no driver
        return [], f"the Vulkan loader found no driver (vkCreateInstance returned {code})"
    try:
        count = ctypes.c_uint32(0)
        enum(instance, ctypes.byref(count), None)
        handles = (ctypes.c_void_p * count.value)()
        enum(instance, ctypes.byref(count), handles)
        devices = []
        for i, handle in enumerate(handles[: count.value]):
            buf = ctypes.create_string_buffer(_PROPERTIES_BYTES)
            props(handle, buf)
            head = _PropertiesHead.from_buffer(buf)
            devices.append(
                VulkanDevice(
                    index=i,
                    name=head.deviceName.decode(errors="replace"),
                    vendor=VENDOR_IDS.get(head.vendorID, f"0x{head.vendorID:04x}"),
                    type=TYPES.get(head.deviceType, str(head.deviceType)),
                )
            )
    finally:
        destroy(instance, None)
    return devices, None if devices else "the Vulkan driver reports no device"


def cpu_driver_index() -> int | None:
    """The index of a Vulkan device that runs on the CPU (lavapipe), or None."""
    devices, _why = vulkan_devices()
    return next((d.index for d in devices if d.on_cpu), None)
