#pragma once
// Catch2 for the course's tests, whichever major version CMake found (it defines
// LAB_CATCH2_MAJOR): Catch2 3 splits its header into parts, Catch2 2 is a single header.
// (Asking the preprocessor which headers exist is not enough: a machine can have both
// versions installed, and the headers must match the library CMake links.) Tests include this file
// and use TEST_CASE, SECTION, CHECK, REQUIRE, INFO and CHECK_THROWS_WITH, which both
// versions spell the same way.
#if LAB_CATCH2_MAJOR >= 3
#  include <catch2/catch_test_macros.hpp>
#  include <catch2/generators/catch_generators.hpp>
#  include <catch2/matchers/catch_matchers_string.hpp>
#else
#  include <catch2/catch.hpp>
#endif

#include <lab/device.h>

// A test that cannot run on this machine (a kernel that needs another GPU) says so and
// ends: Catch2 3 reports it as skipped; Catch2 2 has no skipped state, so it prints the
// reason as a warning and returns (the test case then counts as passed, which is why
// the skip must be seen some other way). On a GPU machine (LAB_REQUIRE_GPU=1,
// lab::gpu_required) every GPU test must run, so there a skip FAILS with its reason, in
// both versions: the course's GPU can run every kernel, and a test that skips there
// hides a build or a driver problem.
#if LAB_CATCH2_MAJOR >= 3
#  define LAB_SKIP_HERE(reason) SKIP(reason)
#else
#  define LAB_SKIP_HERE(reason)        \
    do                                 \
      {                                \
        WARN("SKIPPED: " << reason);   \
        return;                        \
      }                                \
    while (false)
#endif
#define LAB_SKIP(reason)                                                   \
  do                                                                       \
    {                                                                      \
      if (lab::gpu_required())                                             \
        FAIL("skipped under LAB_REQUIRE_GPU=1, which forbids it: " << reason); \
      LAB_SKIP_HERE(reason);                                               \
    }                                                                      \
  while (false)
