// An exercise inside another: lab_literate must refuse it.
void f()
{
  // @exercise{outer, 2}
  // The outer task.
  int x = 0;
  // @exercise{inner, 1}
  // The inner task.
  int y = 0;
  // @end-exercise
  // @end-exercise
}
