#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct segue_heif_entries segue_heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;              /* set (atomically) once every entry is in segue_heif */
static char failure[512];       /* why not, when not */

static void load(void) {
    /* Never closed: a process that read one HEIC may read another. */
    void *heif = dlopen(SEGUE_HEIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!heif) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s cannot be loaded: %s (install libheif1)", SEGUE_HEIF_SONAME, why ? why : "not found");
        return;
    }
    struct segue_heif_entries entries;
#define SEGUE_HEIF_RESOLVE(name, ret, params)                                              \
    if (!(*(void **)&entries.name = dlsym(heif, #name))) {                                 \
        snprintf(failure, sizeof failure, "%s lacks %s (install libheif1 1.13 or later)", SEGUE_HEIF_SONAME, #name); \
        return;                                                                            \
    }
    SEGUE_HEIF_ENTRIES(SEGUE_HEIF_RESOLVE)
#undef SEGUE_HEIF_RESOLVE
    /* Registers libheif's decoders (its plugins, where it has any); never undone, as the library stays. */
    struct heif_error started = entries.heif_init(NULL);
    if (started.code != heif_error_Ok) {
        snprintf(failure, sizeof failure, "%s cannot start: %s", SEGUE_HEIF_SONAME, started.message ? started.message : "heif_init failed");
        return;
    }
    segue_heif = entries;
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int segue_heif_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) return 0;
    if (error && size > 0) snprintf(error, size, "%s", failure);
    return 1;
}
