#ifndef SEGUE_CEGL_SHIM_H
#define SEGUE_CEGL_SHIM_H

/* EGL and GLES 3, opened with dlopen by segue_gles_load() rather than linked, so that a program that never asks
 * for a GLES renderer (the CPU compositor, `segue info` on a machine with no driver) starts without libEGL.so.1
 * and libGLESv2.so.2.
 *
 * The Khronos headers give the types, constants and PFN...PROC typedefs, with their prototypes switched off.
 * Each function Segue calls is a `static inline` wrapper under its real name that calls through one table
 * (`segue_gles`), so Swift calls `glClear(...)` as before. Static inline only: this module defines no exported
 * gl... or egl... symbol, so a driver loaded later never binds to a wrapper instead of the real function.
 *
 * To call another EGL or GLES function: add it to SEGUE_EGL_ENTRIES or SEGUE_GL_ENTRIES and add its wrapper
 * below (the prototype from egl.h or gl3.h). Extension functions are fetched with eglGetProcAddress
 * (EGLProcs.swift) and are not listed here. */

#include <stddef.h>
#define EGL_EGL_PROTOTYPES 0
#define GL_GLES_PROTOTYPES 0
#undef EGL_EGLEXT_PROTOTYPES
#undef GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>

/* The sonames opened (Debian: libegl1 and libgles2, through glvnd). */
#define SEGUE_EGL_SONAME "libEGL.so.1"
#define SEGUE_GLES_SONAME "libGLESv2.so.2"

/* Every entry point called by name: X(name, its PFN type). EGL ones come from libEGL.so.1, GL ones from
 * libGLESv2.so.2 (or eglGetProcAddress where the library lacks one). */
#define SEGUE_EGL_ENTRIES(X) \
    X(eglBindAPI, PFNEGLBINDAPIPROC) \
    X(eglChooseConfig, PFNEGLCHOOSECONFIGPROC) \
    X(eglCreateContext, PFNEGLCREATECONTEXTPROC) \
    X(eglDestroyContext, PFNEGLDESTROYCONTEXTPROC) \
    X(eglGetError, PFNEGLGETERRORPROC) \
    X(eglGetProcAddress, PFNEGLGETPROCADDRESSPROC) \
    X(eglInitialize, PFNEGLINITIALIZEPROC) \
    X(eglMakeCurrent, PFNEGLMAKECURRENTPROC) \
    X(eglQueryString, PFNEGLQUERYSTRINGPROC) \
    X(eglReleaseThread, PFNEGLRELEASETHREADPROC) \
    X(eglTerminate, PFNEGLTERMINATEPROC)

#define SEGUE_GL_ENTRIES(X) \
    X(glActiveTexture, PFNGLACTIVETEXTUREPROC) \
    X(glAttachShader, PFNGLATTACHSHADERPROC) \
    X(glBindBuffer, PFNGLBINDBUFFERPROC) \
    X(glBindFramebuffer, PFNGLBINDFRAMEBUFFERPROC) \
    X(glBindTexture, PFNGLBINDTEXTUREPROC) \
    X(glBlendFunc, PFNGLBLENDFUNCPROC) \
    X(glBufferData, PFNGLBUFFERDATAPROC) \
    X(glCheckFramebufferStatus, PFNGLCHECKFRAMEBUFFERSTATUSPROC) \
    X(glClear, PFNGLCLEARPROC) \
    X(glClearColor, PFNGLCLEARCOLORPROC) \
    X(glClientWaitSync, PFNGLCLIENTWAITSYNCPROC) \
    X(glCompileShader, PFNGLCOMPILESHADERPROC) \
    X(glCreateProgram, PFNGLCREATEPROGRAMPROC) \
    X(glCreateShader, PFNGLCREATESHADERPROC) \
    X(glDeleteBuffers, PFNGLDELETEBUFFERSPROC) \
    X(glDeleteFramebuffers, PFNGLDELETEFRAMEBUFFERSPROC) \
    X(glDeleteProgram, PFNGLDELETEPROGRAMPROC) \
    X(glDeleteShader, PFNGLDELETESHADERPROC) \
    X(glDeleteSync, PFNGLDELETESYNCPROC) \
    X(glDeleteTextures, PFNGLDELETETEXTURESPROC) \
    X(glDisable, PFNGLDISABLEPROC) \
    X(glDisableVertexAttribArray, PFNGLDISABLEVERTEXATTRIBARRAYPROC) \
    X(glDrawArrays, PFNGLDRAWARRAYSPROC) \
    X(glEnable, PFNGLENABLEPROC) \
    X(glEnableVertexAttribArray, PFNGLENABLEVERTEXATTRIBARRAYPROC) \
    X(glFenceSync, PFNGLFENCESYNCPROC) \
    X(glFinish, PFNGLFINISHPROC) \
    X(glFlush, PFNGLFLUSHPROC) \
    X(glFramebufferTexture2D, PFNGLFRAMEBUFFERTEXTURE2DPROC) \
    X(glGenBuffers, PFNGLGENBUFFERSPROC) \
    X(glGenFramebuffers, PFNGLGENFRAMEBUFFERSPROC) \
    X(glGenTextures, PFNGLGENTEXTURESPROC) \
    X(glGetAttribLocation, PFNGLGETATTRIBLOCATIONPROC) \
    X(glGetError, PFNGLGETERRORPROC) \
    X(glGetIntegerv, PFNGLGETINTEGERVPROC) \
    X(glGetProgramInfoLog, PFNGLGETPROGRAMINFOLOGPROC) \
    X(glGetProgramBinary, PFNGLGETPROGRAMBINARYPROC) \
    X(glGetProgramiv, PFNGLGETPROGRAMIVPROC) \
    X(glGetShaderInfoLog, PFNGLGETSHADERINFOLOGPROC) \
    X(glGetShaderiv, PFNGLGETSHADERIVPROC) \
    X(glGetString, PFNGLGETSTRINGPROC) \
    X(glGetStringi, PFNGLGETSTRINGIPROC) \
    X(glGetUniformLocation, PFNGLGETUNIFORMLOCATIONPROC) \
    X(glLinkProgram, PFNGLLINKPROGRAMPROC) \
    X(glMapBufferRange, PFNGLMAPBUFFERRANGEPROC) \
    X(glPixelStorei, PFNGLPIXELSTOREIPROC) \
    X(glProgramBinary, PFNGLPROGRAMBINARYPROC) \
    X(glProgramParameteri, PFNGLPROGRAMPARAMETERIPROC) \
    X(glReadPixels, PFNGLREADPIXELSPROC) \
    X(glShaderSource, PFNGLSHADERSOURCEPROC) \
    X(glTexImage2D, PFNGLTEXIMAGE2DPROC) \
    X(glTexParameteri, PFNGLTEXPARAMETERIPROC) \
    X(glTexStorage2D, PFNGLTEXSTORAGE2DPROC) \
    X(glTexSubImage2D, PFNGLTEXSUBIMAGE2DPROC) \
    X(glUniform1f, PFNGLUNIFORM1FPROC) \
    X(glUniform1i, PFNGLUNIFORM1IPROC) \
    X(glUniform2f, PFNGLUNIFORM2FPROC) \
    X(glUniform2i, PFNGLUNIFORM2IPROC) \
    X(glUniform3f, PFNGLUNIFORM3FPROC) \
    X(glUniform3i, PFNGLUNIFORM3IPROC) \
    X(glUniform4f, PFNGLUNIFORM4FPROC) \
    X(glUniform4i, PFNGLUNIFORM4IPROC) \
    X(glUniform4fv, PFNGLUNIFORM4FVPROC) \
    X(glUniform4iv, PFNGLUNIFORM4IVPROC) \
    X(glUnmapBuffer, PFNGLUNMAPBUFFERPROC) \
    X(glUseProgram, PFNGLUSEPROGRAMPROC) \
    X(glVertexAttribPointer, PFNGLVERTEXATTRIBPOINTERPROC) \
    X(glViewport, PFNGLVIEWPORTPROC)

struct segue_gles_entries {
#define SEGUE_GLES_FIELD(name, type) type name;
    SEGUE_EGL_ENTRIES(SEGUE_GLES_FIELD)
    SEGUE_GL_ENTRIES(SEGUE_GLES_FIELD)
#undef SEGUE_GLES_FIELD
};

/* Filled by segue_gles_load(); every pointer is set once it has returned 0, and none is before. */
extern struct segue_gles_entries segue_gles;

/* Entry points Segue uses where the context has them and does without where it has not: GLES 3.1's compute
 * stage and storage buffers, EXT_buffer_storage, KHR_debug. Resolved by segue_gles_load() too, but a missing
 * one is NULL rather than a failure; ask segue_gles_has_compute() and friends before calling them. */
#define SEGUE_GL_OPTIONAL_ENTRIES(X) \
    X(glDispatchCompute, PFNGLDISPATCHCOMPUTEPROC) \
    X(glMemoryBarrier, PFNGLMEMORYBARRIERPROC) \
    X(glBindBufferBase, PFNGLBINDBUFFERBASEPROC) \
    X(glBindImageTexture, PFNGLBINDIMAGETEXTUREPROC) \
    X(glBufferSubData, PFNGLBUFFERSUBDATAPROC) \
    X(glGetIntegeri_v, PFNGLGETINTEGERI_VPROC) \
    X(glBufferStorageEXT, PFNGLBUFFERSTORAGEEXTPROC) \
    X(glDebugMessageCallbackKHR, PFNGLDEBUGMESSAGECALLBACKKHRPROC) \
    X(glDebugMessageControlKHR, PFNGLDEBUGMESSAGECONTROLKHRPROC) \
    X(glCopyBufferSubData, PFNGLCOPYBUFFERSUBDATAPROC) \
    X(glGenQueries, PFNGLGENQUERIESPROC) \
    X(glDeleteQueries, PFNGLDELETEQUERIESPROC) \
    X(glBeginQuery, PFNGLBEGINQUERYPROC) \
    X(glEndQuery, PFNGLENDQUERYPROC) \
    X(glGetQueryObjectuiv, PFNGLGETQUERYOBJECTUIVPROC) \
    X(glGetQueryObjectui64vEXT, PFNGLGETQUERYOBJECTUI64VEXTPROC)

struct segue_gles_optional_entries {
#define SEGUE_GLES_FIELD(name, type) type name;
    SEGUE_GL_OPTIONAL_ENTRIES(SEGUE_GLES_FIELD)
#undef SEGUE_GLES_FIELD
};

/* Set with segue_gles; a NULL member is an entry point the libraries lack. */
extern struct segue_gles_optional_entries segue_gles_optional;

/* Whether GLES 3.1's compute dispatch, memory barriers, indexed buffer bindings and image bindings are all there
 * (the context must still say OpenGL ES 3.1 or later). */
static inline int segue_gles_has_compute(void) {
    return segue_gles_optional.glDispatchCompute && segue_gles_optional.glMemoryBarrier
        && segue_gles_optional.glBindBufferBase && segue_gles_optional.glBindImageTexture
        && segue_gles_optional.glBufferSubData && segue_gles_optional.glGetIntegeri_v;
}
static inline int segue_gles_has_buffer_storage(void) { return segue_gles_optional.glBufferStorageEXT != NULL; }
/* glCopyBufferSubData (GLES 3.0): the compute path's copy from device memory into the read-back ring. */
static inline int segue_gles_has_buffer_copy(void) { return segue_gles_optional.glCopyBufferSubData != NULL; }
/* Queries (GLES 3.0) and EXT_disjoint_timer_query's 64-bit result: GPU time of a dispatch or a copy (the context
 * must also list GL_EXT_disjoint_timer_query, for GL_TIME_ELAPSED_EXT). */
static inline int segue_gles_has_timer_query(void) {
    return segue_gles_optional.glGenQueries && segue_gles_optional.glDeleteQueries && segue_gles_optional.glBeginQuery
        && segue_gles_optional.glEndQuery && segue_gles_optional.glGetQueryObjectuiv && segue_gles_optional.glGetQueryObjectui64vEXT;
}
static inline int segue_gles_has_debug(void) {
    return segue_gles_optional.glDebugMessageCallbackKHR && segue_gles_optional.glDebugMessageControlKHR;
}

static inline void glDispatchCompute(GLuint x, GLuint y, GLuint z) { segue_gles_optional.glDispatchCompute(x, y, z); }
static inline void glMemoryBarrier(GLbitfield barriers) { segue_gles_optional.glMemoryBarrier(barriers); }
static inline void glBindBufferBase(GLenum target, GLuint index, GLuint buffer) { segue_gles_optional.glBindBufferBase(target, index, buffer); }
static inline void glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer, GLenum access, GLenum format) { segue_gles_optional.glBindImageTexture(unit, texture, level, layered, layer, access, format); }
static inline void glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data) { segue_gles_optional.glBufferSubData(target, offset, size, data); }
static inline void glGetIntegeri_v(GLenum target, GLuint index, GLint *data) { segue_gles_optional.glGetIntegeri_v(target, index, data); }
static inline void glBufferStorageEXT(GLenum target, GLsizeiptr size, const void *data, GLbitfield flags) { segue_gles_optional.glBufferStorageEXT(target, size, data, flags); }
static inline void glCopyBufferSubData(GLenum readTarget, GLenum writeTarget, GLintptr readOffset, GLintptr writeOffset, GLsizeiptr size) { segue_gles_optional.glCopyBufferSubData(readTarget, writeTarget, readOffset, writeOffset, size); }
static inline void glGenQueries(GLsizei n, GLuint *ids) { segue_gles_optional.glGenQueries(n, ids); }
static inline void glDeleteQueries(GLsizei n, const GLuint *ids) { segue_gles_optional.glDeleteQueries(n, ids); }
static inline void glBeginQuery(GLenum target, GLuint id) { segue_gles_optional.glBeginQuery(target, id); }
static inline void glEndQuery(GLenum target) { segue_gles_optional.glEndQuery(target); }
static inline void glGetQueryObjectuiv(GLuint id, GLenum pname, GLuint *params) { segue_gles_optional.glGetQueryObjectuiv(id, pname, params); }
static inline void glGetQueryObjectui64vEXT(GLuint id, GLenum pname, GLuint64 *params) { segue_gles_optional.glGetQueryObjectui64vEXT(id, pname, params); }
/* KHR_debug's callback, kept in C: messages go into a ring of the last few, read with segue_gles_debug_take(). */
void segue_gles_debug_install(void);
/* Copies the oldest unread message into `out` (truncated to `size`) and returns 1, or returns 0 when none is
 * left. Messages over the ring's 32 are dropped, counted by segue_gles_debug_dropped(). */
int segue_gles_debug_take(char *out, size_t size, unsigned *type, unsigned *severity);
unsigned segue_gles_debug_dropped(void);

/* Opens libEGL.so.1 and libGLESv2.so.2 and resolves every entry, the first time it is called (in any thread;
 * later calls return the first one's result at once). Returns 0 when all are there; otherwise 1, with one line
 * in `error` (truncated to `size`) naming the library that cannot be loaded or the symbol it lacks. */
int segue_gles_load(char *error, size_t size);

/* Whether segue_gles_load() has succeeded (for code that may run before it, such as a thread's cleanup). */
int segue_gles_loaded(void);

/* EGL */
static inline EGLBoolean eglBindAPI(EGLenum api) { return segue_gles.eglBindAPI(api); }
static inline EGLBoolean eglChooseConfig(EGLDisplay dpy, const EGLint *attrib_list, EGLConfig *configs, EGLint config_size, EGLint *num_config) { return segue_gles.eglChooseConfig(dpy, attrib_list, configs, config_size, num_config); }
static inline EGLContext eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share_context, const EGLint *attrib_list) { return segue_gles.eglCreateContext(dpy, config, share_context, attrib_list); }
static inline EGLBoolean eglDestroyContext(EGLDisplay dpy, EGLContext ctx) { return segue_gles.eglDestroyContext(dpy, ctx); }
static inline EGLint eglGetError(void) { return segue_gles.eglGetError(); }
static inline __eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *procname) { return segue_gles.eglGetProcAddress(procname); }
static inline EGLBoolean eglInitialize(EGLDisplay dpy, EGLint *major, EGLint *minor) { return segue_gles.eglInitialize(dpy, major, minor); }
static inline EGLBoolean eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) { return segue_gles.eglMakeCurrent(dpy, draw, read, ctx); }
static inline const char * eglQueryString(EGLDisplay dpy, EGLint name) { return segue_gles.eglQueryString(dpy, name); }
static inline EGLBoolean eglReleaseThread(void) { return segue_gles.eglReleaseThread(); }
static inline EGLBoolean eglTerminate(EGLDisplay dpy) { return segue_gles.eglTerminate(dpy); }

/* GLES 3 */
static inline void glActiveTexture(GLenum texture) { segue_gles.glActiveTexture(texture); }
static inline void glAttachShader(GLuint program, GLuint shader) { segue_gles.glAttachShader(program, shader); }
static inline void glBindBuffer(GLenum target, GLuint buffer) { segue_gles.glBindBuffer(target, buffer); }
static inline void glBindFramebuffer(GLenum target, GLuint framebuffer) { segue_gles.glBindFramebuffer(target, framebuffer); }
static inline void glBindTexture(GLenum target, GLuint texture) { segue_gles.glBindTexture(target, texture); }
static inline void glBlendFunc(GLenum sfactor, GLenum dfactor) { segue_gles.glBlendFunc(sfactor, dfactor); }
static inline void glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage) { segue_gles.glBufferData(target, size, data, usage); }
static inline GLenum glCheckFramebufferStatus(GLenum target) { return segue_gles.glCheckFramebufferStatus(target); }
static inline void glClear(GLbitfield mask) { segue_gles.glClear(mask); }
static inline void glClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha) { segue_gles.glClearColor(red, green, blue, alpha); }
static inline GLenum glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) { return segue_gles.glClientWaitSync(sync, flags, timeout); }
static inline void glCompileShader(GLuint shader) { segue_gles.glCompileShader(shader); }
static inline GLuint glCreateProgram(void) { return segue_gles.glCreateProgram(); }
static inline GLuint glCreateShader(GLenum type) { return segue_gles.glCreateShader(type); }
static inline void glDeleteBuffers(GLsizei n, const GLuint *buffers) { segue_gles.glDeleteBuffers(n, buffers); }
static inline void glDeleteFramebuffers(GLsizei n, const GLuint *framebuffers) { segue_gles.glDeleteFramebuffers(n, framebuffers); }
static inline void glDeleteProgram(GLuint program) { segue_gles.glDeleteProgram(program); }
static inline void glDeleteShader(GLuint shader) { segue_gles.glDeleteShader(shader); }
static inline void glDeleteSync(GLsync sync) { segue_gles.glDeleteSync(sync); }
static inline void glDeleteTextures(GLsizei n, const GLuint *textures) { segue_gles.glDeleteTextures(n, textures); }
static inline void glDisable(GLenum cap) { segue_gles.glDisable(cap); }
static inline void glDisableVertexAttribArray(GLuint index) { segue_gles.glDisableVertexAttribArray(index); }
static inline void glDrawArrays(GLenum mode, GLint first, GLsizei count) { segue_gles.glDrawArrays(mode, first, count); }
static inline void glEnable(GLenum cap) { segue_gles.glEnable(cap); }
static inline void glEnableVertexAttribArray(GLuint index) { segue_gles.glEnableVertexAttribArray(index); }
static inline GLsync glFenceSync(GLenum condition, GLbitfield flags) { return segue_gles.glFenceSync(condition, flags); }
static inline void glFinish(void) { segue_gles.glFinish(); }
static inline void glFlush(void) { segue_gles.glFlush(); }
static inline void glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level) { segue_gles.glFramebufferTexture2D(target, attachment, textarget, texture, level); }
static inline void glGenBuffers(GLsizei n, GLuint *buffers) { segue_gles.glGenBuffers(n, buffers); }
static inline void glGenFramebuffers(GLsizei n, GLuint *framebuffers) { segue_gles.glGenFramebuffers(n, framebuffers); }
static inline void glGenTextures(GLsizei n, GLuint *textures) { segue_gles.glGenTextures(n, textures); }
static inline GLint glGetAttribLocation(GLuint program, const GLchar *name) { return segue_gles.glGetAttribLocation(program, name); }
static inline GLenum glGetError(void) { return segue_gles.glGetError(); }
static inline void glGetIntegerv(GLenum pname, GLint *data) { segue_gles.glGetIntegerv(pname, data); }
static inline void glGetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei *length, GLchar *infoLog) { segue_gles.glGetProgramInfoLog(program, bufSize, length, infoLog); }
static inline void glGetProgramBinary(GLuint program, GLsizei bufSize, GLsizei *length, GLenum *binaryFormat, void *binary) { segue_gles.glGetProgramBinary(program, bufSize, length, binaryFormat, binary); }
static inline void glGetProgramiv(GLuint program, GLenum pname, GLint *params) { segue_gles.glGetProgramiv(program, pname, params); }
static inline void glGetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *infoLog) { segue_gles.glGetShaderInfoLog(shader, bufSize, length, infoLog); }
static inline void glGetShaderiv(GLuint shader, GLenum pname, GLint *params) { segue_gles.glGetShaderiv(shader, pname, params); }
static inline const GLubyte * glGetString(GLenum name) { return segue_gles.glGetString(name); }
static inline const GLubyte * glGetStringi(GLenum name, GLuint index) { return segue_gles.glGetStringi(name, index); }
static inline GLint glGetUniformLocation(GLuint program, const GLchar *name) { return segue_gles.glGetUniformLocation(program, name); }
static inline void glLinkProgram(GLuint program) { segue_gles.glLinkProgram(program); }
static inline void * glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) { return segue_gles.glMapBufferRange(target, offset, length, access); }
static inline void glPixelStorei(GLenum pname, GLint param) { segue_gles.glPixelStorei(pname, param); }
static inline void glProgramBinary(GLuint program, GLenum binaryFormat, const void *binary, GLsizei length) { segue_gles.glProgramBinary(program, binaryFormat, binary, length); }
static inline void glProgramParameteri(GLuint program, GLenum pname, GLint value) { segue_gles.glProgramParameteri(program, pname, value); }
static inline void glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type, void *pixels) { segue_gles.glReadPixels(x, y, width, height, format, type, pixels); }
static inline void glShaderSource(GLuint shader, GLsizei count, const GLchar *const*string, const GLint *length) { segue_gles.glShaderSource(shader, count, string, length); }
static inline void glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLint border, GLenum format, GLenum type, const void *pixels) { segue_gles.glTexImage2D(target, level, internalformat, width, height, border, format, type, pixels); }
static inline void glTexParameteri(GLenum target, GLenum pname, GLint param) { segue_gles.glTexParameteri(target, pname, param); }
static inline void glTexStorage2D(GLenum target, GLsizei levels, GLenum internalformat, GLsizei width, GLsizei height) { segue_gles.glTexStorage2D(target, levels, internalformat, width, height); }
static inline void glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width, GLsizei height, GLenum format, GLenum type, const void *pixels) { segue_gles.glTexSubImage2D(target, level, xoffset, yoffset, width, height, format, type, pixels); }
static inline void glUniform1f(GLint location, GLfloat v0) { segue_gles.glUniform1f(location, v0); }
static inline void glUniform1i(GLint location, GLint v0) { segue_gles.glUniform1i(location, v0); }
static inline void glUniform2f(GLint location, GLfloat v0, GLfloat v1) { segue_gles.glUniform2f(location, v0, v1); }
static inline void glUniform2i(GLint location, GLint v0, GLint v1) { segue_gles.glUniform2i(location, v0, v1); }
static inline void glUniform3f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2) { segue_gles.glUniform3f(location, v0, v1, v2); }
static inline void glUniform3i(GLint location, GLint v0, GLint v1, GLint v2) { segue_gles.glUniform3i(location, v0, v1, v2); }
static inline void glUniform4f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3) { segue_gles.glUniform4f(location, v0, v1, v2, v3); }
static inline void glUniform4i(GLint location, GLint v0, GLint v1, GLint v2, GLint v3) { segue_gles.glUniform4i(location, v0, v1, v2, v3); }
static inline void glUniform4fv(GLint location, GLsizei count, const GLfloat *value) { segue_gles.glUniform4fv(location, count, value); }
static inline void glUniform4iv(GLint location, GLsizei count, const GLint *value) { segue_gles.glUniform4iv(location, count, value); }
static inline GLboolean glUnmapBuffer(GLenum target) { return segue_gles.glUnmapBuffer(target); }
static inline void glUseProgram(GLuint program) { segue_gles.glUseProgram(program); }
static inline void glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized, GLsizei stride, const void *pointer) { segue_gles.glVertexAttribPointer(index, size, type, normalized, stride, pointer); }
static inline void glViewport(GLint x, GLint y, GLsizei width, GLsizei height) { segue_gles.glViewport(x, y, width, height); }

#endif
