// LAB_SKIP (testing/lab_catch.h) as a GPU machine sees it. The test case is hidden ([.]:
// the ordinary runs leave it out); the CTest case common/planted/lab-skip-under-require-gpu
// runs it alone, once as a user would (it skips) and once with LAB_REQUIRE_GPU=1, where
// the skip must fail the run: on the course's GPU a test that skips hides a fault.
#include <lab_catch.h>

TEST_CASE("lab_skip: a planted skip", "[.]")
{
  LAB_SKIP("a planted skip");
}
