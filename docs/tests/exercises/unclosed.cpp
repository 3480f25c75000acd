// An exercise that is never closed: lab_literate must refuse it.
void f()
{
  // @exercise{unclosed, 1}
  // The task.
  int x = 0;
}
