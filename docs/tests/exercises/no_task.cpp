// An exercise without its task: lab_literate must refuse it.
void f()
{
  // @exercise{no_task, 1}
  int x = 0;
  // @end-exercise
}
