// One name for two exercises of one file: lab_literate must refuse it.
void f()
{
  // @exercise{twice, 1}
  // The first task.
  int x = 0;
  // @end-exercise
}

void g()
{
  // @exercise{twice, 2}
  // The second task.
  int y = 0;
  // @end-exercise
}
