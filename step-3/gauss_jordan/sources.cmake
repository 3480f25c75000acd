# The Gauss–Jordan part of step-3 (a general matrix's inverse, the thesis' contrast).
# step-3/CMakeLists.txt adds these lists to the step's; paths are relative to step-3/.
set(GAUSS_JORDAN_LIBRARY
  gauss_jordan/gauss_jordan.cu gauss_jordan/1_thesis_swap_on_zero.cu gauss_jordan/2_partial_pivoting.cu
  gauss_jordan/3_blocked.cu gauss_jordan/gauss_jordan_cpu.cpp gauss_jordan/cusolver_inverse.cu)
set(GAUSS_JORDAN_TESTS tests/gauss_jordan_cpu_test.cpp)
set(GAUSS_JORDAN_GPU_TESTS tests/gauss_jordan_gpu_test.cpp)
# The page's order: the interface, the CPU reference, the matrix that needs pivoting,
# the shared kernels, the variants in teaching order, the list, cuSOLVER.
set(GAUSS_JORDAN_LITERATE
  gauss_jordan/gauss_jordan.h gauss_jordan/gauss_jordan_cpu.h gauss_jordan/gauss_jordan_cpu.cpp
  gauss_jordan/unstable_example.h gauss_jordan/row_operations.cuh
  gauss_jordan/1_thesis_swap_on_zero.cuh gauss_jordan/1_thesis_swap_on_zero.cu
  gauss_jordan/2_partial_pivoting.cuh gauss_jordan/2_partial_pivoting.cu
  gauss_jordan/3_blocked.cuh gauss_jordan/3_blocked.cu gauss_jordan/gauss_jordan.cu
  gauss_jordan/cusolver_inverse.h gauss_jordan/cusolver_inverse.cu)
# The program's stages for Gauss–Jordan: the pivoting shown on one matrix, and the
# table of the sweep (after the program's shared pieces on the page).
set(GAUSS_JORDAN_PROGRAM_LITERATE gauss_jordan/show_unstable_example.h gauss_jordan/gauss_jordan_table.h)
