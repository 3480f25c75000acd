// The main function of every CPU test program: Catch2's own.
#if LAB_CATCH2_MAJOR >= 3
#  include <catch2/catch_session.hpp>
#else
#  define CATCH_CONFIG_RUNNER
#  include <catch2/catch.hpp>
#endif

int main(int argc, char **argv) { return Catch::Session().run(argc, argv); }
