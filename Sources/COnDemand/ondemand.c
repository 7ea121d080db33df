#include "COnDemand.h"

#include <dlfcn.h>
#include <stdio.h>

static int bind_all(struct ondemand_library *l) {
    void *handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(l->problem, sizeof l->problem, "%s", dlerror());
        return 0;
    }
    for (size_t i = 0; i < l->count; i++) {
        if (!(*l->slots[i] = dlsym(handle, l->names[i]))) {  // POSIX: a function's address as void *
            snprintf(l->problem, sizeof l->problem, "%s has no %s", l->soname, l->names[i]);
            return 0;
        }
    }
    return 1;
}

const char *ondemand_load(struct ondemand_library *l) {
    int state = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&l->lock);
        state = __atomic_load_n(&l->state, __ATOMIC_RELAXED);
        if (state == 0) {
            state = bind_all(l) ? 1 : 2;
            __atomic_store_n(&l->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&l->lock);
    }
    return state == 1 ? NULL : l->problem;
}
