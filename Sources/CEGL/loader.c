#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct segue_gles_entries segue_gles;

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
