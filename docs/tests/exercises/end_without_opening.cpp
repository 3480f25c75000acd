// An end marker with no exercise open: lab_literate must refuse it.
void f()
{
  int x = 0;
  // @end-exercise
}
