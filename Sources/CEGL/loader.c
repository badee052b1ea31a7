#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct segue_gles_entries segue_gles;
struct segue_gles_optional_entries segue_gles_optional;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;              /* set (atomically) once every entry is in segue_gles */
static char failure[512];       /* why not, when not */

/* dlopen(soname), or NULL with `failure` saying why and what to install. */
static void *open_library(const char *soname, const char *package) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s cannot be loaded: %s (install %s and a GLES driver, such as Mesa's)",
                 soname, why ? why : "not found", package);
    }
    return handle;
}

static void load(void) {
    /* Never closed: the driver's own libraries stay loaded for the process's life anyway. */
    void *egl = open_library(SEGUE_EGL_SONAME, "libegl1");
    if (!egl) return;
    void *gles = open_library(SEGUE_GLES_SONAME, "libgles2");
    if (!gles) return;

    struct segue_gles_entries entries;
#define SEGUE_GLES_EGL(name, type)                                                          \
    if (!(entries.name = (type)dlsym(egl, #name))) {                                        \
        snprintf(failure, sizeof failure, "%s lacks %s", SEGUE_EGL_SONAME, #name);          \
        return;                                                                             \
    }
    SEGUE_EGL_ENTRIES(SEGUE_GLES_EGL)
#undef SEGUE_GLES_EGL
#define SEGUE_GLES_GL(name, type)                                                           \
    if (!(entries.name = (type)dlsym(gles, #name))                                          \
        && !(entries.name = (type)entries.eglGetProcAddress(#name))) {                      \
        snprintf(failure, sizeof failure, "%s lacks %s", SEGUE_GLES_SONAME, #name);         \
        return;                                                                             \
    }
    SEGUE_GL_ENTRIES(SEGUE_GLES_GL)
#undef SEGUE_GLES_GL
    struct segue_gles_optional_entries optional;
#define SEGUE_GLES_OPTIONAL(name, type)                                                     \
    if (!(optional.name = (type)dlsym(gles, #name)))                                        \
        optional.name = (type)entries.eglGetProcAddress(#name);
    SEGUE_GL_OPTIONAL_ENTRIES(SEGUE_GLES_OPTIONAL)
#undef SEGUE_GLES_OPTIONAL
    segue_gles_optional = optional;
    segue_gles = entries;
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int segue_gles_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (segue_gles_loaded()) return 0;
    if (error && size > 0) snprintf(error, size, "%s", failure);
    return 1;
}

int segue_gles_loaded(void) {
    return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
}

/* KHR_debug: the driver calls this on the GL thread (or any thread, without GL_DEBUG_OUTPUT_SYNCHRONOUS); a
 * small ring under a mutex keeps the last messages for the renderer to collect. */
#define SEGUE_DEBUG_RING 32
static pthread_mutex_t debug_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { char text[240]; unsigned type, severity; } debug_ring[SEGUE_DEBUG_RING];
static unsigned debug_head, debug_count, debug_dropped;

static void GL_APIENTRY debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                       const GLchar *message, const void *user) {
    (void)source; (void)id; (void)length; (void)user;
    pthread_mutex_lock(&debug_lock);
    if (debug_count == SEGUE_DEBUG_RING) {
        debug_dropped++;
    } else {
        unsigned slot = (debug_head + debug_count) % SEGUE_DEBUG_RING;
        snprintf(debug_ring[slot].text, sizeof debug_ring[slot].text, "%s", message ? message : "");
        debug_ring[slot].type = type;
        debug_ring[slot].severity = severity;
        debug_count++;
    }
    pthread_mutex_unlock(&debug_lock);
}

void segue_gles_debug_install(void) {
    if (!segue_gles_has_debug()) return;
    segue_gles_optional.glDebugMessageCallbackKHR(debug_callback, NULL);
    segue_gles_optional.glDebugMessageControlKHR(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL, GL_TRUE);
    segue_gles.glEnable(GL_DEBUG_OUTPUT_KHR);
}

int segue_gles_debug_take(char *out, size_t size, unsigned *type, unsigned *severity) {
    pthread_mutex_lock(&debug_lock);
    int got = debug_count > 0;
    if (got) {
        if (out && size > 0) snprintf(out, size, "%s", debug_ring[debug_head].text);
        if (type) *type = debug_ring[debug_head].type;
        if (severity) *severity = debug_ring[debug_head].severity;
        debug_head = (debug_head + 1) % SEGUE_DEBUG_RING;
        debug_count--;
    }
    pthread_mutex_unlock(&debug_lock);
    return got;
}

unsigned segue_gles_debug_dropped(void) {
    pthread_mutex_lock(&debug_lock);
    unsigned n = debug_dropped;
    pthread_mutex_unlock(&debug_lock);
    return n;
}
