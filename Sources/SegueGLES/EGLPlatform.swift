/// The EGL platforms the GLES renderer can run on, in the order it tries them.
public enum EGLPlatform: String, Sendable, CaseIterable, Equatable, Hashable {
    /// `EGL_PLATFORM_GBM_KHR` on a DRM render node (`/dev/dri/renderD*`): a real GPU.
    case gbm
    /// `EGL_EXT_platform_device`: an EGL device from `eglQueryDevicesEXT`, hardware preferred over software.
    case device
    /// `EGL_MESA_platform_surfaceless`: no native display at all (Mesa's llvmpipe where there is no GPU).
    case surfaceless
}
