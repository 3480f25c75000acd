// A fixture for the planted fault of the test docs/exercise-registry: a well-formed
// exercise that no lab_add_exercise line times and no test case is tagged with.
double twice(double x)
{
  // @exercise{untimed_untested, 1}
  // Return twice x.
  return 2 * x;
  // @end-exercise
}
