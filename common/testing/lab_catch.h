#pragma once
// Catch2 for the course's tests, whichever major version the system has: Catch2 3
// splits its header into parts, Catch2 2 is a single header. Tests include this file
// and use TEST_CASE, SECTION, CHECK, REQUIRE, INFO and CHECK_THROWS_WITH, which both
// versions spell the same way.
#if __has_include(<catch2/catch_test_macros.hpp>)
#  include <catch2/catch_test_macros.hpp>
#  include <catch2/generators/catch_generators.hpp>
#  include <catch2/matchers/catch_matchers_string.hpp>
#else
#  include <catch2/catch.hpp>
#endif
