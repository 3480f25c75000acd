#pragma once
/// @file
/// @brief LAB_HOST_DEVICE: one function body for the CPU and for the GPU.
///
/// A function marked `__host__ __device__` is compiled twice by nvcc: once for the
/// CPU, once for the GPU. The plain C++ compiler does not know these keywords, so a
/// header that both compilers read spells them through this macro.

#if defined(__CUDACC__)
/// Marks a function that runs on the CPU and on the GPU.
#define LAB_HOST_DEVICE __host__ __device__
#else
#define LAB_HOST_DEVICE
#endif
