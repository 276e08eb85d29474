/* CustomCall targets that crash, for tests/custom_call.rs (compiled during
 * `cargo test` like myfunc.c). Each has the one CustomCall signature,
 * `void name(void* out, void** in)` (spec/ops/custom_call.md). */

#include <stdint.h>

/* Stores through the address held in its s64 argument: given 0, a write
 * through NULL, which faults (SIGSEGV). The address comes from the input, so
 * the compiler cannot see the NULL and replace the store with a trap. */
void crash_null(void *out, void **in) {
    int64_t addr = *(const int64_t *)in[0];
    volatile int *p = (volatile int *)(intptr_t)addr;
    *p = 42;
    *(float *)out = 1.0f;
}
