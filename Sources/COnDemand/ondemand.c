#include "COnDemand.h"

#include <dlfcn.h>
#include <stdio.h>

int ondemand_bind(const char *soname, const char *const names[], void **const slots[], size_t count,
                  char *problem, size_t problem_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, problem_size, "%s", dlerror());
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        if (!(*slots[i] = dlsym(library, names[i]))) {  // POSIX: a function's address as void *
            snprintf(problem, problem_size, "%s has no %s", soname, names[i]);
            return 0;
        }
    }
    return 1;
}
