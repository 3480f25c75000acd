# Choose the GPU architecture to compile for, unless the user chose one
# (-DCMAKE_CUDA_ARCHITECTURES=80, or make CUDA_ARCH=80).
#
# We ask nvidia-smi for the compute capability of the first GPU. On a machine without
# a GPU (a laptop, a CI runner) we build for the course's reference GPU, Hopper
# (sm_90); the kernels then still compile and the CPU parts run.
if(DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  return()
endif()

set(_lab_arch 90)
find_program(LAB_NVIDIA_SMI nvidia-smi)
if(LAB_NVIDIA_SMI)
  execute_process(
    COMMAND ${LAB_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _lab_cc RESULT_VARIABLE _lab_rc ERROR_QUIET
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_lab_rc EQUAL 0 AND _lab_cc MATCHES "^([0-9]+)\\.([0-9]+)")
    set(_lab_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    message(STATUS "GPU found: compute capability ${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
  endif()
endif()
set(CMAKE_CUDA_ARCHITECTURES ${_lab_arch} CACHE STRING "GPU architectures to build for")
message(STATUS "Building for CUDA architecture sm_${_lab_arch}")
