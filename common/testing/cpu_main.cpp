// The main function of every CPU test program: Catch2's own.
#if LAB_CATCH2_MAJOR >= 3
#  include <catch2/catch_session.hpp>
#else
#  define CATCH_CONFIG_RUNNER
#  include <catch2/catch.hpp>
#endif

#include <lab/exercise.h>

#include <iostream>

// In a student edition a failed test says which exercises are not done yet
// (lab/exercise.h).
int main(int argc, char **argv)
{
  const int failed = Catch::Session().run(argc, argv);
  if (failed != 0)
    lab::print_exercises_not_done(std::cout);
  return failed;
}
