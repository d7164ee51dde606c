/* A fused AdamW step shaped like DeepSpeedCPUAdam (deepspeedai/DeepSpeed csrc/adam/cpu_adam_impl.cpp,
 * Step_AVX with adamw_mode): per fp32 parameter it reads the parameter, gradient and both moments, writes the
 * parameter and both moments and a bf16 copy (the copy DeepSpeed sends back to the GPU), one OpenMP parallel
 * region per tile of 128 Mi elements (csrc/includes/simd.h TILE). Vectorised by the compiler (-O3
 * -march=native): the same one pass over memory as DeepSpeed's intrinsics, not DeepSpeed itself.
 *
 * Usage: fused-adam N_PARAMS STEPS   (threads: OMP_NUM_THREADS). Prints one JSON line:
 * {"kind":"fused-adam","params":N,"threads":T,"step_s":median,"rate":params/s}
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TILE (128L * 1024 * 1024)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 256L * 1024 * 1024;
  int steps = argc > 2 ? atoi(argv[2]) : 5;
  float *p = aligned_alloc(64, n * 4), *g = aligned_alloc(64, n * 4);
  float *m = aligned_alloc(64, n * 4), *v = aligned_alloc(64, n * 4);
  uint16_t *h = aligned_alloc(64, n * 2);
#pragma omp parallel for
  for (long i = 0; i < n; i++) {
    p[i] = 0.01f * (i % 97);
    g[i] = 0.001f * (i % 89) - 0.04f;
    m[i] = 0;
    v[i] = 0;
    h[i] = 0;
  }
  const float lr = 2e-5f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f, wd = 0.01f;
  double times[64];
  for (int s = 1; s <= steps + 1; s++) {
    float bc1 = 1 - powf(b1, s), bc2 = sqrtf(1 - powf(b2, s));
    float step_size = -lr / bc1, decay = 1 - lr * wd;
    double t0 = now();
    for (long t = 0; t < n; t += TILE) {
      long end = t + TILE < n ? t + TILE : n;
#pragma omp parallel for simd
      for (long i = t; i < end; i++) {
        float grad = g[i];
        float mi = b1 * m[i] + (1 - b1) * grad;
        float vi = b2 * v[i] + (1 - b2) * grad * grad;
        float pi = p[i] * decay;
        pi += step_size * mi / (sqrtf(vi) / bc2 + eps);
        m[i] = mi;
        v[i] = vi;
        p[i] = pi;
        union { float f; uint32_t u; } c = {pi};
        h[i] = (uint16_t)(c.u >> 16);
      }
    }
    times[s - 1] = now() - t0;
  }
  qsort(times + 1, steps, sizeof(double), cmp);
  double med = times[1 + steps / 2];
  printf("{\"kind\":\"fused-adam\",\"params\":%ld,\"threads\":%d,\"step_s\":%.6f,\"rate\":%.4g,\"check\":%g}\n",
         n, omp_get_max_threads(), med, n / med, (double)p[n / 3]);
  return 0;
}
