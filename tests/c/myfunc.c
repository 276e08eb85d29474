/* CustomCall targets for tests/custom_call.rs, compiled during `cargo test`
 * with the system C compiler (`cc -shared -fPIC`). Each has the one CustomCall
 * signature, `void name(void* out, void** in)` (spec/ops/custom_call.md). */

#include <stdint.h>

/* Seed 002's example, in C: it receives x = f32[2] {1, 2} and
 * y = f32[2x3] {{10, 20, 30}, {40, 50, 60}} in row-major order and writes a
 * f32[3x3]. The seed checks its inputs with EXPECT_EQ and leaves the rest of
 * z as "..."; here the checks' outcome goes to z[2][2] (1 if every one held,
 * else 0), and every other element stays as xlet gave it (zero). */
void myfunc(void *out, void **in) {
    float (*x) = (float *)in[0];
    float (*y)[3] = (float (*)[3])in[1];
    float (*z)[3] = (float (*)[3])out;
    int ok = x[0] == 1 && x[1] == 2 && y[0][0] == 10 && y[0][1] == 20 &&
             y[0][2] == 30 && y[1][0] == 40 && y[1][1] == 50 && y[1][2] == 60;
    z[0][0] = x[1] + y[1][0];
    z[2][2] = ok ? 1.0f : 0.0f;
}

/* A tuple result, (f32[], s32[4]), from x = f32[4]: out is a table of one
 * buffer pointer per element (XLA's CPU convention). Element 0 is the sum of
 * x; element 1 is x truncated toward zero. */
void sum_and_trunc(void *out, void **in) {
    const float *x = (const float *)in[0];
    void **table = (void **)out;
    float *sum = (float *)table[0];
    int32_t *ints = (int32_t *)table[1];
    *sum = 0;
    for (int i = 0; i < 4; i++) {
        *sum += x[i];
        ints[i] = (int32_t)x[i];
    }
}

/* A large result: in[0] is an s64 scalar n; out is f32[n] with
 * out[i] = i mod 1000. */
void fill_large(void *out, void **in) {
    int64_t n = *(const int64_t *)in[0];
    float *z = (float *)out;
    for (int64_t i = 0; i < n; i++) {
        z[i] = (float)(i % 1000);
    }
}
