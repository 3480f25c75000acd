// A difficulty out of 1 to 3: lab_literate must refuse it.
void f()
{
  // @exercise{too_hard, 4}
  // The task.
  int x = 0;
  // @end-exercise
}
